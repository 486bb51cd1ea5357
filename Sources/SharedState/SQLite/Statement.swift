import CSQLite
import Foundation

/// A prepared statement: the single owner of a `sqlite3_stmt` handle, finalized in `deinit`.
///
/// Statements belong to the ``Database`` that prepared them (which caches them by SQL) and
/// must be used on that connection's thread of the moment only.
///
/// See [Prepared Statement Object](https://www.sqlite.org/c3ref/stmt.html).
final class Statement {
    let handle: OpaquePointer
    let sql: String
    private unowned let database: Database

    /// Prepares the first statement of `sql`; reports where the rest of the text starts.
    ///
    /// - Parameters:
    ///   - sql: UTF-8 SQL text; its length is passed in bytes.
    ///   - database: The connection to prepare on.
    ///   - persistent: Whether to hint `SQLITE_PREPARE_PERSISTENT` (for cached statements).
    /// - Returns: `nil` when `sql` holds only whitespace or comments.
    /// - Throws: ``SQLiteError`` when SQLite refuses the SQL.
    static func prepare(_ sql: Substring.UTF8View, in database: Database, persistent: Bool)
        throws -> (statement: Statement?, rest: Substring.UTF8View) {
        var utf8 = Array(sql)
        utf8.append(0)
        let byteCount = Int32(utf8.count - 1)
        return try utf8.withUnsafeBufferPointer { buffer in
            try buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { text in
                var handle: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let flags = UInt32(persistent ? SQLITE_PREPARE_PERSISTENT : 0)
                let code = sqlite3_prepare_v3(database.handle, text, byteCount, flags, &handle, &tail)
                let consumed = tail.map { text.distance(to: $0) } ?? Int(byteCount)
                let firstSQL = String(decoding: buffer[..<consumed], as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                try SQLiteError.check(code, database.handle, sql: firstSQL)
                let rest = sql.dropFirst(consumed)
                guard let handle else { return (nil, rest) }
                return (Statement(handle: handle, sql: firstSQL, database: database), rest)
            }
        }
    }

    private init(handle: OpaquePointer, sql: String, database: Database) {
        self.handle = handle
        self.sql = sql
        self.database = database
        parameterCount = Int(sqlite3_bind_parameter_count(handle))
    }

    /// How many parameters the statement takes.
    private let parameterCount: Int

    deinit {
        sqlite3_finalize(handle)
    }

    /// Resets the statement and binds `arguments` to its parameters, in order.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_RANGE`) when the count does not match the statement.
    ///
    /// Every parameter is bound again (the count must match), so the old bindings need no clearing.
    func reset(binding arguments: [SQLValue]) throws {
        sqlite3_reset(handle)
        let expected = parameterCount
        guard arguments.count == expected else {
            throw SQLiteError(extendedCode: SQLITE_RANGE,
                              message: "statement takes \(expected) arguments, got \(arguments.count)",
                              sql: sql, path: database.path)
        }
        for (offset, argument) in arguments.enumerated() {
            try bind(argument, at: Int32(offset + 1))
        }
    }

    private func bind(_ value: SQLValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            var text = text
            code = text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    // An empty string still needs a non-NULL pointer, or SQLite binds NULL.
                    guard let base = chars.baseAddress, !chars.isEmpty else {
                        return sqlite3_bind_text64(handle, index, "", 0, csqlite_static(), UInt8(SQLITE_UTF8))
                    }
                    return sqlite3_bind_text64(handle, index, base, UInt64(chars.count),
                                               csqlite_transient(), UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let data):
            code = data.withUnsafeBytes { bytes in
                // A zero-length blob bound with a NULL pointer would read back as NULL.
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_zeroblob64(handle, index, 0)
                }
                return sqlite3_bind_blob64(handle, index, base, UInt64(bytes.count), csqlite_transient())
            }
        }
        if code != SQLITE_OK { try SQLiteError.check(code, sqlite3_db_handle(handle), sql: sql) }
    }

    /// Advances to the next row.
    ///
    /// - Returns: `true` when a row is available, `false` when the statement is done.
    /// - Throws: ``SQLiteError`` when the step fails.
    func step() throws -> Bool {
        // The connection (for the error's details) is looked up only on an error: `database` is unowned, and each
        // read of it costs a strong retain and release.
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: return try SQLiteError.check(code, sqlite3_db_handle(handle), sql: sql) == SQLITE_ROW
        }
    }

    /// The names of the result columns, in order.
    ///
    /// Read once per preparation: a cached statement runs many times with the same columns, and SQLite prepares it
    /// again (counted by `SQLITE_STMTSTATUS_REPREPARE`) when the schema changed, which may change them (`SELECT *`
    /// after a column was added).
    var columnNames: [String] {
        let preparations = sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
        if let known = knownColumnNames, known.preparations == preparations { return known.names }
        let names = (0..<sqlite3_column_count(handle)).map { String(cString: sqlite3_column_name(handle, $0)) }
        knownColumnNames = (names, preparations)
        return names
    }

    /// ``columnNames`` as last read, and the statement's preparation count then.
    private var knownColumnNames: (names: [String], preparations: Int32)?

    /// The value of column `index` in the current row.
    func value(at index: Int32) -> SQLValue {
        SQLValue(copying: sqlite3_column_value(handle, index))
    }
}

@available(*, unavailable)
extension Statement: Sendable {}

extension SQLValue {
    /// Copies a `sqlite3_value` (a column, or a pre-update hook value) into Swift memory.
    init(copying value: OpaquePointer?) {
        guard let value else { self = .null; return }
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT:
            self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            let bytes = sqlite3_value_text(value)
            let count = Int(sqlite3_value_bytes(value))
            self = .text(bytes.map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) } ?? "")
        case SQLITE_BLOB:
            let bytes = sqlite3_value_blob(value)
            let count = Int(sqlite3_value_bytes(value))
            self = .blob(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        default:
            self = .null
        }
    }
}
