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
    init(recorded: [RowChange]) {
        var rows: [RowChange] = []
        var order: [KeyChange.ID] = []
        var folded: [KeyChange.ID: KeyChange] = [:]
        for change in recorded {
            guard change.table == DefaultsTable.name else {
                rows.append(change)
                continue
            }
            let before = DefaultsTable.decode(change, before: true)
            let after = DefaultsTable.decode(change, before: false)
            // An update that moves a row to another key is a removal plus an insertion.
            var touched: [(id: KeyChange.ID, old: PropertyListValue?, new: PropertyListValue?)] = []
            if let before, let after, before.id != after.id {
                touched = [(before.id, before.value, nil), (after.id, nil, after.value)]
            } else if let id = after?.id ?? before?.id {
                touched = [(id, before?.value, after?.value)]
            }
            for item in touched {
                if var existing = folded[item.id] {
                    existing.new = item.new
                    folded[item.id] = existing
                } else {
                    order.append(item.id)
                    folded[item.id] = KeyChange(suite: item.id.suite, key: item.id.key, old: item.old, new: item.new)
                }
            }
        }
        self.rows = rows
        self.keys = order.compactMap { folded[$0] }.filter { $0.old != $0.new }
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
