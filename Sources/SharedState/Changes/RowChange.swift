/// One row inserted, updated or deleted by a transaction, with its values before and after.
///
/// Recorded by SQLite's pre-update hook, so every change made through SQL is seen — including
/// rows deleted by `REPLACE` conflict resolution and by foreign-key actions — except changes to
/// SQLite's internal tables (`sqlite_sequence`, `sqlite_stat1`) and to attached or temporary
/// databases, which SharedState does not report.
///
/// A change keeps its values in column order beside its table's column names, which all changes of the table
/// share (a perform's changes are recorded, stored as JSON and answered many times, and seldom read by name):
/// ``old`` and ``new`` build their dictionaries when read. Equality, hashing and `Codable` go by those
/// dictionaries, as for the `[String: SQLValue]` members they stand for.
///
/// See [sqlite3_preupdate_hook](https://www.sqlite.org/c3ref/preupdate_blobwrite.html).
public struct RowChange: Sendable, Hashable, Codable {
    /// What happened to the row.
    public enum Operation: String, Sendable, Hashable, Codable {
        case insert, update, delete
    }

    /// The table the row belongs to.
    public let table: String
    /// What happened to the row.
    public let operation: Operation
    /// The row's rowid: after the change for inserts and updates, before it for deletes.
    /// Meaningless for `WITHOUT ROWID` tables, whose rows are identified by ``old``/``new``.
    public let rowID: Int64
    /// The names of ``oldValues``.
    package let oldColumns: RowColumns?
    /// The values before the change, in ``oldColumns``' order; `nil` for inserts.
    package let oldValues: [SQLValue]?
    /// The names of ``newValues``.
    package let newColumns: RowColumns?
    /// The values after the change, in ``newColumns``' order; `nil` for deletes.
    package let newValues: [SQLValue]?

    /// Column values before the change; `nil` for inserts.
    public var old: [String: SQLValue]? {
        guard let oldColumns, let oldValues else { return nil }
        return oldColumns.dictionary(oldValues)
    }

    /// Column values after the change; `nil` for deletes.
    public var new: [String: SQLValue]? {
        guard let newColumns, let newValues else { return nil }
        return newColumns.dictionary(newValues)
    }

    /// Creates a row change; SharedState creates these while capturing a transaction.
    public init(table: String, operation: Operation, rowID: Int64,
                old: [String: SQLValue]?, new: [String: SQLValue]?) {
        let old = old.map(RowColumns.split)
        let new = new.map(RowColumns.split)
        self.init(table: table, operation: operation, rowID: rowID, oldColumns: old?.columns, oldValues: old?.values,
                  newColumns: new?.columns, newValues: new?.values)
    }

    /// A change whose values are given in column order, with the table's shared names.
    init(table: String, operation: Operation, rowID: Int64, oldColumns: RowColumns?, oldValues: [SQLValue]?,
         newColumns: RowColumns?, newValues: [SQLValue]?) {
        self.table = table
        self.operation = operation
        self.rowID = rowID
        self.oldColumns = oldColumns
        self.oldValues = oldValues
        self.newColumns = newColumns
        self.newValues = newValues
    }

    /// The value of column `name` after the change (before it when `before`), if the row has that column.
    package func value(_ name: String, before: Bool = false) -> SQLValue? {
        guard let columns = before ? oldColumns : newColumns, let values = before ? oldValues : newValues else {
            return nil
        }
        return columns.value(name, in: values)
    }

    public static func == (lhs: RowChange, rhs: RowChange) -> Bool {
        lhs.table == rhs.table && lhs.operation == rhs.operation && lhs.rowID == rhs.rowID
            && lhs.old == rhs.old && lhs.new == rhs.new
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(table)
        hasher.combine(operation)
        hasher.combine(rowID)
        hasher.combine(old)
        hasher.combine(new)
    }

    private enum CodingKeys: String, CodingKey {
        case table, operation, rowID, old, new
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(table: try container.decode(String.self, forKey: .table),
                  operation: try container.decode(Operation.self, forKey: .operation),
                  rowID: try container.decode(Int64.self, forKey: .rowID),
                  old: try container.decodeIfPresent([String: SQLValue].self, forKey: .old),
                  new: try container.decodeIfPresent([String: SQLValue].self, forKey: .new))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(table, forKey: .table)
        try container.encode(operation, forKey: .operation)
        try container.encode(rowID, forKey: .rowID)
        try container.encodeIfPresent(old, forKey: .old)
        try container.encodeIfPresent(new, forKey: .new)
    }
}
