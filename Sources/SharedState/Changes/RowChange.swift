/// One row inserted, updated or deleted by a transaction, with its values before and after.
///
/// Recorded by SQLite's pre-update hook, so every change made through SQL is seen — including
/// rows deleted by `REPLACE` conflict resolution and by foreign-key actions — except changes to
/// SQLite's internal tables (`sqlite_sequence`, `sqlite_stat1`) and to attached or temporary
/// databases, which SharedState does not report.
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
    /// Column values before the change; `nil` for inserts.
    public let old: [String: SQLValue]?
    /// Column values after the change; `nil` for deletes.
    public let new: [String: SQLValue]?

    /// Creates a row change; SharedState creates these while capturing a transaction.
    public init(table: String, operation: Operation, rowID: Int64,
                old: [String: SQLValue]?, new: [String: SQLValue]?) {
        self.table = table
        self.operation = operation
        self.rowID = rowID
        self.old = old
        self.new = new
    }
}
