import CSQLite
import Foundation

/// The floor of one interactive perform of the demo's task toggle: the statements the runner makes on the container
/// for it (as `sqlite3_trace_v2` lists them), with bare `sqlite3_*` calls on a container holding the same tables and
/// fixtures, statements prepared once, `batchSize` performs per `BEGIN IMMEDIATE … COMMIT` (the batch group commit
/// reached), each in its own savepoint as the runner does.
///
/// Per perform, in the batch: the idempotency look-up, the task's project, the update, the project's remaining
/// tasks, the `lastCompletedTaskID` default when completing, the idempotency record and the owed-reload record. Per
/// batch: the purges of expired keys and of old done owed reloads, and the marking done of the owed reloads of the
/// batch before (one `UPDATE` over their run of ids, as the runner marks them). Outcome and request texts are strings as long as
/// the runner's (``textLengths``: the benchmark sets them from the rows the runner wrote), so both write as many
/// bytes: no intent, no parameter binding, no JSON, no change capture, no reload planning.
final class RawPerformWriter {
    private let calls = RawSQLiteCalls(floor: "raw perform")

    private var db: OpaquePointer?
    private var statements: [OpaquePointer?] = []
    /// The owed-reload rows of the last batch, marked done by the next one.
    private var owedRows: [Int64] = []

    init(path: String) throws {
        try calls.check(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil), "open")
        try calls.check(sqlite3_exec(db, "PRAGMA synchronous = FULL", nil, nil, nil), "synchronous")
        for sql in [
            "BEGIN IMMEDIATE", "COMMIT", "SAVEPOINT perform", "RELEASE perform",
            "SELECT request, outcome FROM widgethost_intent_keys WHERE key = ? AND expires_at > ?",
            "SELECT project_id FROM tasks WHERE id = ?",
            "UPDATE tasks SET completed = ? WHERE id = ? AND completed <> ?",
            "SELECT COUNT(*) FROM tasks WHERE project_id = ? AND completed = 0",
            """
            INSERT INTO shared_state_defaults(suite, key, type, value) VALUES ('group.com.example.widgethost.demo', ?, 'string', ?)
            ON CONFLICT(suite, key) DO UPDATE SET type = excluded.type, value = excluded.value
            """,
            """
            INSERT OR REPLACE INTO widgethost_intent_keys(key, request, outcome, performed_at, expires_at)
            VALUES (?, ?, ?, ?, ?)
            """,
            "INSERT INTO widgethost_owed_reloads(idempotency_key, instance_id, requests, committed_at) VALUES (?, NULL, ?, ?)",
            "DELETE FROM widgethost_intent_keys WHERE expires_at <= ?",
            "DELETE FROM widgethost_owed_reloads WHERE done_at <= ?",
            "UPDATE widgethost_owed_reloads SET done_at = ? WHERE id BETWEEN ? AND ? AND done_at IS NULL",
            "SELECT (SELECT COUNT(*) FROM widgethost_intent_keys), (SELECT COUNT(*) FROM widgethost_owed_reloads)",
            "INSERT INTO widgethost_owed_reloads(idempotency_key, instance_id, requests, committed_at, done_at) VALUES (?, NULL, ?, ?, ?)",
        ] {
            var statement: OpaquePointer?
            try calls.check(sqlite3_prepare_v2(db, sql, -1, &statement, nil), sql)
            statements.append(statement)
        }
    }

    deinit {
        for statement in statements { sqlite3_finalize(statement) }
        sqlite3_close_v2(db)
    }

    private var request = String(repeating: "r", count: 100)
    private var outcome = String(repeating: "o", count: 850)

    /// The lengths of the request and outcome texts written per perform: those of the runner's stored keys.
    var textLengths: (request: Int, outcome: Int) {
        get { (request.utf8.count, outcome.utf8.count) }
        set {
            request = String(repeating: "r", count: newValue.request)
            outcome = String(repeating: "o", count: newValue.outcome)
        }
    }

    /// Performs `count` toggles of the clients' tasks, `batchSize` per transaction; returns how many.
    ///
    /// The performs are those of `clients` clients taking turns, as the benchmark's clients do: the `index`th
    /// (from `firstIndex` on) is client `index % clients`'s `index / clients + 1`th perform, on its own task, with
    /// the key `keyPrefix-client-count`, completing the task on odd counts and reopening it on even ones, so every
    /// perform changes its task's row.
    func perform(count: Int, batchSize: Int, clients: Int, keyPrefix: String, firstIndex: Int) throws -> Int {
        var done = 0
        let now = Date().timeIntervalSince1970
        while done < count {
            let batch = min(batchSize, count - done)
            try calls.step(statements[0])
            bind(statements[11], [.real(now)])
            try calls.step(statements[11])
            bind(statements[12], [.real(now - 86400)])
            try calls.step(statements[12])
            if let first = owedRows.first, let last = owedRows.last {
                bind(statements[13], [.real(now)])
                sqlite3_bind_int64(statements[13], 2, first)
                sqlite3_bind_int64(statements[13], 3, last)
                try calls.step(statements[13])
            }
            owedRows.removeAll(keepingCapacity: true)
            for _ in 0..<batch {
                let index = firstIndex + done
                let task = "task-\(index % clients + 1)"
                let key = Self.key(keyPrefix, index, clients: clients)
                let completed: Int32 = (index / clients + 1).isMultiple(of: 2) ? 0 : 1
                try calls.step(statements[2])
                bind(statements[4], [.text(key), .real(now)])
                try rows(statements[4])
                bind(statements[5], [.text(task)])
                try rows(statements[5])
                sqlite3_bind_int(statements[6], 1, completed)
                RawSQLiteCalls.bind(text: task, to: statements[6], at: 2)
                sqlite3_bind_int(statements[6], 3, completed)
                try calls.step(statements[6])
                bind(statements[7], [.text("proj-thesis")])
                try rows(statements[7])
                if completed == 1 {
                    bind(statements[8], [.text("lastCompletedTaskID"), .text(task)])
                    try calls.step(statements[8])
                }
                bind(statements[9], [.text(key), .text(request), .text(outcome), .real(now),
                                     .real(now + 86400)])
                try calls.step(statements[9])
                bind(statements[10], [.text(key), .text("[\"TaskList\"]"), .real(now)])
                try calls.step(statements[10])
                owedRows.append(sqlite3_last_insert_rowid(db))
                try calls.step(statements[3])
                done += 1
            }
            try calls.step(statements[1])
        }
        return done
    }

    /// The rows of the container's idempotency and owed-reload ledgers.
    func ledgerSizes() throws -> (keys: Int, owed: Int) {
        defer { sqlite3_reset(statements[14]) }
        guard sqlite3_step(statements[14]) == SQLITE_ROW else {
            throw BenchmarkUsage(message: "raw perform: the ledgers' sizes")
        }
        return (Int(sqlite3_column_int64(statements[14], 0)), Int(sqlite3_column_int64(statements[14], 1)))
    }

    /// Adds `keys` idempotency records (texts as long as ``textLengths``) and `owed` owed reloads already done, in one
    /// transaction, keys `fill-n` after those this writer added before: so that both sides of the benchmark perform
    /// on ledgers of the same size (not measured). A count below one adds none.
    func fill(keys: Int, owed: Int) throws {
        let (keys, owed) = (max(keys, 0), max(owed, 0))
        guard keys > 0 || owed > 0 else { return }
        let now = Date().timeIntervalSince1970
        try calls.step(statements[0])
        for _ in 0..<keys {
            filled += 1
            bind(statements[9], [.text("fill-\(filled)"), .text(request), .text(outcome), .real(now),
                                 .real(now + 86400)])
            try calls.step(statements[9])
        }
        for _ in 0..<owed {
            bind(statements[15], [.text("fill-owed"), .text("[\"TaskList\"]"), .real(now), .real(now)])
            try calls.step(statements[15])
        }
        try calls.step(statements[1])
    }

    /// The filler keys this writer added so far.
    private var filled = 0

    /// The idempotency key of the `index`th perform: `prefix-client-count`, as the benchmark's clients make theirs,
    /// so the keys' index takes inserts at one place per client, as it does for the runner, not at its end alone.
    private static func key(_ prefix: String, _ index: Int, clients: Int) -> String {
        "\(prefix)-\(index % clients)-\(index / clients + 1)"
    }

    private enum Value {
        case text(String)
        case real(Double)
    }

    private func bind(_ statement: OpaquePointer?, _ values: [Value]) {
        for (offset, value) in values.enumerated() {
            switch value {
            case .text(let text): RawSQLiteCalls.bind(text: text, to: statement, at: Int32(offset + 1))
            case .real(let number): sqlite3_bind_double(statement, Int32(offset + 1), number)
            }
        }
    }

    private func rows(_ statement: OpaquePointer?) throws {
        var code = sqlite3_step(statement)
        while code == SQLITE_ROW { code = sqlite3_step(statement) }
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw BenchmarkUsage(message: "raw perform: SQLite error \(code)") }
    }
}
