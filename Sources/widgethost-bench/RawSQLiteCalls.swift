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

extension RawSQLiteCalls {
    /// Binds `text` by its UTF-8 bytes and their count, as a C program holding the bytes would (and as SharedState
    /// binds). A Swift string passed where SQLite takes a C string is copied into a new NUL-terminated array when it
    /// is short enough to be stored in place (an allocation per bind), and SQLite then measures it again.
    static func bind(text: String, to statement: OpaquePointer?, at index: Int32) {
        var text = text
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                // An empty string still needs a pointer, or SQLite binds NULL.
                guard let base = chars.baseAddress, !chars.isEmpty else {
                    _ = sqlite3_bind_text(statement, index, "", 0, csqlite_static())
                    return
                }
                _ = sqlite3_bind_text(statement, index, base, Int32(chars.count), csqlite_transient())
            }
        }
    }
}
