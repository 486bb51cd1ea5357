import CSQLite
import Foundation
import Push

/// The floor of the planner's durable path: the rows one planned update writes (the activity's row, its decision,
/// its outbox row with a `JSONEncoder` payload), with bare `sqlite3_*` calls, statements prepared once, one
/// `BEGIN IMMEDIATE … COMMIT` per batch. No policy, no reads: what any planner must at least write.
final class RawOutboxWriter {
    private let calls = RawSQLiteCalls(floor: "raw outbox")

    private var db: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    private let encoder = EncodedPayload.encoder()

    init(path: String) throws {
        try calls.check(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil), "open")
        for sql in [
            "PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL",
            "CREATE TABLE activities(id TEXT PRIMARY KEY, last_push_at REAL, last_state BLOB)",
            "CREATE TABLE decisions(id INTEGER PRIMARY KEY, activity_id TEXT, at REAL, kind TEXT, reason TEXT, apns_id TEXT)",
            """
            CREATE TABLE outbox(seq INTEGER PRIMARY KEY, apns_id TEXT UNIQUE, activity_id TEXT, device_token TEXT,
                                priority INTEGER, payload BLOB, created_at REAL, status TEXT)
            """,
        ] {
            try calls.check(sqlite3_exec(db, sql, nil, nil, nil), sql)
        }
        for sql in ["BEGIN IMMEDIATE", "COMMIT",
                    "INSERT OR REPLACE INTO activities VALUES (?, ?, ?)",
                    "INSERT INTO decisions(activity_id, at, kind, reason, apns_id) VALUES (?, ?, 'sent', 'priority 5', ?)",
                    "INSERT INTO outbox(apns_id, activity_id, device_token, priority, payload, created_at, status) VALUES (?, ?, ?, 5, ?, ?, 'pending')"] {
            var statement: OpaquePointer?
            try calls.check(sqlite3_prepare_v2(db, sql, -1, &statement, nil), sql)
            statements[sql.components(separatedBy: " ").prefix(3).joined(separator: " ")] = statement
        }
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(db)
    }

    /// Writes the rows of changes `indices` in one transaction.
    func write(_ indices: Range<Int>) throws {
        try step("BEGIN IMMEDIATE")
        for index in indices {
            let payload = try EncodedPayload.bytes(index, encoder)
            let activity = "la-\(index % PushBenchmark.activityCount)"
            let id = UUID().uuidString
            let at = PushBenchmark.start.timeIntervalSince1970 + Double(index / PushBenchmark.activityCount)
            let token = PushTokenText.hex(PushBenchmark.token(index % PushBenchmark.activityCount))
            try step("INSERT OR REPLACE", [.text(activity), .real(at), .blob(payload)])
            try step("INSERT INTO decisions(activity_id,", [.text(activity), .real(at), .text(id)])
            try step("INSERT INTO outbox(apns_id,", [.text(id), .text(activity), .text(token), .blob(payload), .real(at)])
        }
        try step("COMMIT")
    }

    private enum Value {
        case text(String)
        case real(Double)
        case blob(Data)
    }

    private func step(_ key: String, _ values: [Value] = []) throws {
        guard let statement = statements[key] else { throw BenchmarkUsage(message: "raw outbox: no statement \(key)") }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .text(let text): RawSQLiteCalls.bind(text: text, to: statement, at: index)
            case .real(let number): sqlite3_bind_double(statement, index, number)
            case .blob(let data):
                _ = data.withUnsafeBytes { bytes in
                    sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), csqlite_transient())
                }
            }
        }
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw BenchmarkUsage(message: "raw outbox \(key): SQLite error \(code)") }
    }
}
