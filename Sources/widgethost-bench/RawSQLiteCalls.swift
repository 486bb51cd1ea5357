import CSQLite

/// The checks every raw `sqlite3_*` floor makes on its calls, each error naming the floor.
struct RawSQLiteCalls {
    /// The floor's name in its errors, e.g. "raw taps".
    let floor: String

    /// Steps a statement that returns no row, then resets it.
    func step(_ statement: OpaquePointer?) throws {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw BenchmarkUsage(message: "\(floor): SQLite error \(code)") }
    }

    /// Refuses a result code other than `SQLITE_OK`, naming what was called.
    func check(_ code: Int32, _ what: String) throws {
        guard code == SQLITE_OK else { throw BenchmarkUsage(message: "\(floor) \(what): SQLite error \(code)") }
    }
}
