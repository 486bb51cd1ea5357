import CSQLite
import Foundation

/// Collects the row changes of the writer connection's current transaction.
///
/// The pre-update hook stays installed on the writer for the connection's whole life and
/// returns at once unless ``isCapturing`` is set. Keeping it installed matters: SQLite prepares
/// `DELETE FROM t` (no `WHERE`) with the truncate optimization, which skips the hook, whenever
/// no hook is installed at prepare time, and the statement cache would keep such statements.
/// The idle cost is one C call and one flag read per changed row.
///
/// The hook may not touch the connection, so it stores column values by index; column names
/// are resolved after the transaction body, before `COMMIT` (``finish(on:)``).
///
/// A write session records only inside savepoints that report their changes: what is written
/// outside them (an intent runner's idempotency and owed-reload rows) is never reported, so it
/// is not copied either. ``DatabaseStore/writeCapturingChanges(_:)`` records the whole transaction.
final class ChangeRecorder {
    private struct PendingChange {
        var table: String
        var operation: RowChange.Operation
        var rowID: Int64
        var old: [SQLValue]?
        var new: [SQLValue]?
    }

    /// Whether a transaction is being captured.
    private(set) var isCapturing = false
    /// Whether all of it is recorded, or only what reporting savepoints enclose.
    private var recordsWholeTransaction = false
    /// The open savepoints that report their changes.
    private var reportingSavepoints = 0
    private var pending: [PendingChange] = []
    /// Marks into ``pending`` for each open savepoint, innermost last, and whether it reports its changes.
    private var savepointMarks: [(mark: Int, reports: Bool)] = []

    /// Whether a change made now is recorded.
    var isRecording: Bool { isCapturing && (recordsWholeTransaction || reportingSavepoints > 0) }
    /// Column names per table, valid for ``columnNamesSchemaVersion``; every change of a table shares them.
    private var columnNames: [String: RowColumns] = [:]
    private var columnNamesSchemaVersion: Int64 = -1

    /// Installs the hook on `database`; the recorder must outlive the connection's use of it.
    func install(on database: Database) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_preupdate_hook(database.handle, changeRecorderHook, context)
    }

    /// Starts capturing a new transaction's changes.
    /// - Parameter wholeTransaction: Record every change, or (false, a write session) only those made inside
    ///   savepoints that report their changes.
    func begin(wholeTransaction: Bool) {
        precondition(!isCapturing, "change capture does not nest")
        isCapturing = true
        recordsWholeTransaction = wholeTransaction
        reportingSavepoints = 0
        pending.removeAll(keepingCapacity: true)
        savepointMarks.removeAll()
    }

    /// Stops recording and forgets everything (the transaction rolled back).
    func discard() {
        isCapturing = false
        reportingSavepoints = 0
        pending.removeAll(keepingCapacity: true)
        savepointMarks.removeAll()
    }

    /// - Parameter reporting: Whether the savepoint reports what it changed (so what it encloses is recorded).
    func beginSavepoint(reporting: Bool) {
        guard isCapturing else { return }
        savepointMarks.append((pending.count, reporting))
        if reporting { reportingSavepoints += 1 }
    }

    /// The innermost savepoint stops reporting: what is written in it from now on is no longer recorded (unless an
    /// enclosing savepoint reports), what was recorded stays.
    func stopReportingInnermostSavepoint() {
        guard isCapturing, let last = savepointMarks.indices.last, savepointMarks[last].reports else { return }
        savepointMarks[last].reports = false
        reportingSavepoints -= 1
    }

    func releaseSavepoint() {
        guard isCapturing, let savepoint = savepointMarks.popLast() else { return }
        if savepoint.reports { reportingSavepoints -= 1 }
    }

    func rollbackSavepoint() {
        guard isCapturing, let savepoint = savepointMarks.popLast() else { return }
        if savepoint.reports { reportingSavepoints -= 1 }
        pending.removeSubrange(savepoint.mark...)
    }

    /// Stops recording and names the columns of what was recorded; call before `COMMIT`.
    ///
    /// - Throws: ``SQLiteError`` when reading the schema fails.
    func finish(on database: Database) throws -> ChangeSet {
        isCapturing = false
        defer { pending.removeAll(keepingCapacity: true) }
        return try changeSet(since: 0, on: database)
    }

    /// The number of changes recorded so far: a mark for ``changeSet(since:on:)``.
    var mark: Int { pending.count }

    /// The changes recorded after `mark`, with their columns named; recording goes on.
    ///
    /// A write session uses this to report what each savepoint changed.
    /// - Throws: ``SQLiteError`` when reading the schema fails.
    func changeSet(since mark: Int, on database: Database) throws -> ChangeSet {
        guard mark < pending.count else { return ChangeSet() }
        let schemaVersion = try database.scalar("PRAGMA schema_version", as: Int64.self) ?? 0
        if schemaVersion != columnNamesSchemaVersion {
            columnNames.removeAll()
            columnNamesSchemaVersion = schemaVersion
        }
        var recorded: [RowChange] = []
        recorded.reserveCapacity(pending.count - mark)
        var current: (table: String, columns: RowColumns)?
        for change in pending[mark...] {
            if current?.table != change.table { current = (change.table, try columns(of: change.table, on: database)) }
            guard let columns = current?.columns else { continue }
            recorded.append(RowChange(table: change.table, operation: change.operation, rowID: change.rowID,
                                      oldColumns: change.old.map { Self.fitting(columns, $0.count) },
                                      oldValues: change.old,
                                      newColumns: change.new.map { Self.fitting(columns, $0.count) },
                                      newValues: change.new))
        }
        return ChangeSet(recorded: recorded)
    }

    private func columns(of table: String, on database: Database) throws -> RowColumns {
        if let cached = columnNames[table] { return cached }
        let rows = try database.query("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)])
        let columns = RowColumns(names: rows.compactMap { $0.string("name") })
        columnNames[table] = columns
        return columns
    }

    /// The table's names for a change with `count` values: the shared ones when they match. A table dropped or
    /// altered since the change keeps positional names (`column0`...) for the columns it no longer describes, and
    /// names beyond the change's values are left out.
    private static func fitting(_ columns: RowColumns, _ count: Int) -> RowColumns {
        if columns.names.count == count { return columns }
        return RowColumns(names: (0..<count).map { $0 < columns.names.count ? columns.names[$0] : "column\($0)" })
    }

    /// The table names the hook saw lately, the latest last: a transaction changes a few tables, often in turns
    /// (an intent updates its row, then a defaults key), so a name is compared with these rather than copied again
    /// (a name over 15 bytes is an allocation).
    private var recentTableNames: [String] = []
    private static let recentTableNameLimit = 8

    /// `tableName` as a string: one of the recent names when it is the same text.
    fileprivate func table(named tableName: UnsafePointer<CChar>) -> String {
        for name in recentTableNames.reversed() where name.withCString({ strcmp($0, tableName) == 0 }) {
            return name
        }
        let name = String(cString: tableName)
        if recentTableNames.count == Self.recentTableNameLimit { recentTableNames.removeFirst() }
        recentTableNames.append(name)
        return name
    }

    /// Called from the hook while capturing.
    fileprivate func record(_ connection: OpaquePointer, operation: Int32, table: String,
                            oldRowID: Int64, newRowID: Int64) {
        let count = sqlite3_preupdate_count(connection)
        switch operation {
        case SQLITE_INSERT:
            pending.append(PendingChange(table: table, operation: .insert, rowID: newRowID,
                                         old: nil, new: Self.values(connection, count, sqlite3_preupdate_new)))
        case SQLITE_UPDATE:
            let old = Self.values(connection, count, sqlite3_preupdate_old)
            pending.append(PendingChange(table: table, operation: .update, rowID: newRowID,
                                         old: old, new: Self.values(connection, count, sqlite3_preupdate_new,
                                                                    reusing: old)))
        case SQLITE_DELETE:
            pending.append(PendingChange(table: table, operation: .delete, rowID: oldRowID,
                                         old: Self.values(connection, count, sqlite3_preupdate_old), new: nil))
        default:
            break
        }
    }

    /// One side of a change, read with `read` (`sqlite3_preupdate_old` or `_new`). For an update's new side, a text
    /// the update left as it was is the old side's string again (`reusing`), not a copy: an update usually changes
    /// a column or two of a row.
    private static func values(_ connection: OpaquePointer, _ count: Int32,
                               _ read: (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>) -> Int32,
                               reusing old: [SQLValue]? = nil) -> [SQLValue] {
        (0..<count).map { index in
            var value: OpaquePointer?
            guard read(connection, index, &value) == SQLITE_OK else { return .null }
            if case .text(var text)? = old?[Int(index)], sqlite3_value_type(value) == SQLITE_TEXT {
                let length = Int(sqlite3_value_bytes(value))
                let same = text.withUTF8 { bytes in
                    guard bytes.count == length else { return false }
                    guard length > 0, let new = sqlite3_value_text(value), let base = bytes.baseAddress else {
                        return length == 0
                    }
                    return memcmp(new, base, length) == 0
                }
                if same { return .text(text) }
            }
            return SQLValue(copying: value)
        }
    }
}

@available(*, unavailable)
extension ChangeRecorder: Sendable {}

/// The pre-update hook: a plain C function, so it carries no actor isolation.
private func changeRecorderHook(
    context: UnsafeMutableRawPointer?, connection: OpaquePointer?, operation: Int32,
    databaseName: UnsafePointer<CChar>?, tableName: UnsafePointer<CChar>?, oldRowID: Int64, newRowID: Int64
) {
    guard let context, let connection, let databaseName, let tableName else { return }
    let recorder = Unmanaged<ChangeRecorder>.fromOpaque(context).takeUnretainedValue()
    guard recorder.isRecording, strcmp(databaseName, "main") == 0 else { return }
    recorder.record(connection, operation: operation, table: recorder.table(named: tableName),
                    oldRowID: oldRowID, newRowID: newRowID)
}
