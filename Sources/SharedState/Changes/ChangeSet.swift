/// What one committed transaction changed: the rows of every table, and the defaults keys.
///
/// ``rows`` lists row changes in the order they happened, one entry per row per statement.
/// Rows of the defaults table (``DefaultsSuite``'s storage) are not in ``rows``: they appear,
/// decoded, in ``keys``, where changes to one key are folded into one ``KeyChange`` from its
/// value before the transaction to its value after it; a key that ended where it started
/// (set to its current value, or set then removed when it did not exist) is left out.
///
/// Changes rolled back with a savepoint are not included; a transaction that rolls back
/// produces no `ChangeSet` at all.
///
/// `Codable` (with ``RowChange``, ``KeyChange``, ``SQLValue`` and ``PropertyListValue``) in the
/// compiler-synthesized keyed form, which keeps every value's exact type, so a stored change set
/// decodes to an equal one.
public struct ChangeSet: Sendable, Hashable, Codable {
    /// Row changes in the order they happened, excluding the defaults table.
    public var rows: [RowChange]
    /// The defaults keys whose value differs after the transaction, in first-touched order.
    public var keys: [KeyChange]

    /// Creates a change set.
    public init(rows: [RowChange] = [], keys: [KeyChange] = []) {
        self.rows = rows
        self.keys = keys
    }

    /// Whether the transaction changed nothing observable.
    public var isEmpty: Bool { rows.isEmpty && keys.isEmpty }

    /// The names of the tables with at least one changed row, in first-touched order.
    public var changedTables: [String] {
        var seen = Set<String>()
        return rows.compactMap { seen.insert($0.table).inserted ? $0.table : nil }
    }

    /// Splits raw row changes into table rows and folded key changes.
    ///
    /// Keys are folded in first-touched order (``KeyFolding``).
    init(recorded: [RowChange]) {
        var rows: [RowChange] = []
        rows.reserveCapacity(recorded.count)
        var folded = KeyFolding()
        for change in recorded {
            guard change.table == DefaultsTable.name else {
                rows.append(change)
                continue
            }
            let before = DefaultsTable.decode(change, before: true)
            let after = DefaultsTable.decode(change, before: false)
            // An update that moves a row to another key is a removal plus an insertion.
            if let before, let after, before.id != after.id {
                folded.fold(before.id, old: before.value, new: nil)
                folded.fold(after.id, old: nil, new: after.value)
            } else if let id = after?.id ?? before?.id {
                folded.fold(id, old: before?.value, new: after?.value)
            }
        }
        self.rows = rows
        self.keys = folded.changes.filter { $0.old != $0.new }
    }
}

/// Key changes folded per key, in first-touched order. A transaction usually touches a few keys, found by searching
/// the list from its end (the last key touched is the likeliest to be touched again); past
/// ``KeyFolding/searchLimit`` keys, an index by key takes over, so a transaction touching thousands stays linear.
private struct KeyFolding {
    static let searchLimit = 16
    private(set) var changes: [KeyChange] = []
    private var index: [KeyChange.ID: Int] = [:]

    /// Records that key `id` went from `old` to `new`: a key already touched keeps its first `old`.
    mutating func fold(_ id: KeyChange.ID, old: PropertyListValue?, new: PropertyListValue?) {
        let found = changes.count <= Self.searchLimit
            ? changes.lastIndex { $0.key == id.key && $0.suite == id.suite }
            : index[id]
        if let found {
            changes[found].new = new
            return
        }
        changes.append(KeyChange(suite: id.suite, key: id.key, old: old, new: new))
        if changes.count == Self.searchLimit + 1 {
            for (position, change) in changes.enumerated() {
                index[KeyChange.ID(suite: change.suite, key: change.key)] = position
            }
        } else if changes.count > Self.searchLimit + 1 {
            index[id] = changes.count - 1
        }
    }
}

/// A defaults key whose value a transaction changed.
public struct KeyChange: Sendable, Hashable, Codable {
    /// Identifies a key within the container: its suite and its name.
    struct ID: Hashable {
        var suite: String
        var key: String
    }

    /// The suite name (the group identifier for the group's standard suite).
    public var suite: String
    /// The key.
    public var key: String
    /// The value before the transaction; `nil` when the key did not exist.
    public var old: PropertyListValue?
    /// The value after the transaction; `nil` when the key was removed.
    public var new: PropertyListValue?

    /// Creates a key change.
    public init(suite: String, key: String, old: PropertyListValue?, new: PropertyListValue?) {
        self.suite = suite
        self.key = key
        self.old = old
        self.new = new
    }
}
