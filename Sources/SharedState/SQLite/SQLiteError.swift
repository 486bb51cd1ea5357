import CSQLite

/// An error reported by SQLite, with everything needed to understand it without a debugger.
///
/// Every SQLite return code in SharedState goes through ``SQLiteError/check(_:_:sql:function:)``;
/// a failure becomes one of these, carrying SQLite's extended result code, SQLite's own message
/// for it, the SQL being run (if any), the database file, and the Swift function that called
/// SQLite. Bound argument values are never part of the error, so secrets stay out of logs.
///
/// See [Result and Error Codes](https://www.sqlite.org/rescode.html).
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// SQLite's extended result code, such as `SQLITE_CONSTRAINT_PRIMARYKEY` (1555).
    public let extendedCode: Int32
    /// SQLite's own message: `sqlite3_errmsg` when a connection is at hand, else `sqlite3_errstr`.
    public let message: String
    /// The SQL statement that failed, when the failure concerns one.
    public let sql: String?
    /// The database file the connection was opened on (`:memory:` for in-memory databases).
    public let path: String?
    /// The Swift function that called SQLite (`#function` at the call site).
    public let function: String

    /// The primary result code (`extendedCode & 0xFF`), such as `SQLITE_CONSTRAINT` (19).
    public var code: Int32 { extendedCode & 0xFF }

    /// Creates an error from its parts; SharedState creates these through ``check(_:_:sql:function:)``.
    public init(extendedCode: Int32, message: String, sql: String? = nil, path: String? = nil,
                function: String = #function) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.path = path
        self.function = function
    }

    public var description: String {
        var text = "SQLite error \(extendedCode)"
        let name = String(cString: sqlite3_errstr(extendedCode))
        if name != message { text += " (\(name))" }
        text += ": \(message)"
        if let path { text += " — database '\(path)'" }
        if let sql { text += " — SQL: \(sql)" }
        text += " — in \(function)"
        return text
    }
}

extension SQLiteError {
    /// Turns a SQLite return code into a thrown ``SQLiteError``; the one checker of SharedState.
    ///
    /// `SQLITE_OK`, `SQLITE_ROW` and `SQLITE_DONE` pass. `SQLITE_MISUSE` means SharedState
    /// called the C API wrongly (a finalized handle, a bad pointer): that is our bug, not a
    /// condition a caller can handle, so it stops the process with a precondition failure.
    ///
    /// - Parameters:
    ///   - code: The value a `sqlite3_*` function returned.
    ///   - connection: The connection the call ran on, for `sqlite3_errmsg` and the file name.
    ///   - sql: The SQL involved, if any.
    ///   - function: The calling Swift function.
    /// - Returns: `code`, so a caller can tell `SQLITE_ROW` from `SQLITE_DONE`.
    /// - Throws: ``SQLiteError`` for every other code.
    @discardableResult
    static func check(_ code: Int32, _ connection: OpaquePointer?, sql: String? = nil,
                      function: String = #function) throws -> Int32 {
        switch code {
        case SQLITE_OK, SQLITE_ROW, SQLITE_DONE:
            return code
        case SQLITE_MISUSE:
            preconditionFailure("SQLite API misuse in \(function) (SQL: \(sql ?? "none")): a SharedState bug")
        default:
            var extended = code
            var message = String(cString: sqlite3_errstr(code))
            var path: String?
            if let connection {
                extended = sqlite3_extended_errcode(connection)
                if extended & 0xFF != code & 0xFF { extended = code }
                message = String(cString: sqlite3_errmsg(connection))
                if let name = sqlite3_db_filename(connection, "main") {
                    let file = String(cString: name)
                    path = file.isEmpty ? ":memory:" : file
                }
            }
            throw SQLiteError(extendedCode: extended, message: message, sql: sql, path: path, function: function)
        }
    }
}
