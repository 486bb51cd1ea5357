import Foundation
import JSON
import SharedState

/// The reloads committed performs owe their widgets, kept in the App Group container until they ran.
///
/// A perform commits in the container, while the timelines its reloads rebuild live in the engine's own store: two
/// databases, two commits. A process that stops between them would keep the perform and lose its reloads, and the
/// tapped widget would show the state from before the tap until its next scheduled reload. So every perform that
/// causes reloads records them here in its own transaction (both commit or neither does), and the runner marks the
/// row done once they ran. A row still owed after a restart is what the runner runs when it starts.
///
/// ```sql
/// CREATE TABLE widgethost_owed_reloads (
///     id INTEGER PRIMARY KEY,        -- commit order
///     idempotency_key TEXT,          -- the perform's key, if any: a replay finds its first perform's reloads by it
///     instance_id TEXT,              -- the tapped instance: reloaded at once, budget-exempt
///     requests TEXT NOT NULL,        -- the WidgetCenter requests of perform() (budgeted): JSON array of kinds, "*" all
///     committed_at REAL NOT NULL,    -- engine clock
///     done_at REAL,                  -- engine clock; NULL while owed
///     control_id TEXT,               -- the performed control: its value read again at once   (migration 3)
///     control_requests TEXT)         -- the ControlCenter requests of perform(): JSON array, "*" all; NULL none
/// ```
///
/// Controls are owed as widgets are: a toggle whose perform committed but whose value was not read again would show
/// its old state, so the control reloads are recorded with the perform and run after a crash too.
struct OwedReloadLedger {
    static let tableName = "widgethost_owed_reloads"

    /// Adds the table to a container; runs after the idempotency table's migration.
    static func registerMigrations(in migrator: inout Migrator) {
        migrator.registerMigration("WidgetHost.intents.2-owed-reloads") { db in
            try db.execute("""
                CREATE TABLE \(tableName) (
                    id INTEGER PRIMARY KEY,
                    idempotency_key TEXT,
                    instance_id TEXT,
                    requests TEXT NOT NULL,
                    committed_at REAL NOT NULL,
                    done_at REAL)
                """)
            // Owed rows (done_at NULL) sort first: the start-up scan and the purge of old done rows both use it.
            try db.execute("CREATE INDEX \(tableName)_by_done ON \(tableName)(done_at)")
            try db.execute("""
                CREATE INDEX \(tableName)_owed_by_key ON \(tableName)(idempotency_key)
                WHERE done_at IS NULL AND idempotency_key IS NOT NULL
                """)
        }
        migrator.registerMigration("WidgetHost.intents.3-owed-control-reloads") { db in
            try db.execute("ALTER TABLE \(tableName) ADD COLUMN control_id TEXT")
            try db.execute("ALTER TABLE \(tableName) ADD COLUMN control_requests TEXT")
        }
    }

    /// The reloads one committed perform owes.
    struct Entry: Sendable, Hashable {
        /// The row's id.
        var id: Int64
        /// The perform's idempotency key, if it had one.
        var idempotencyKey: String?
        /// The tapped instance, reloaded budget-exempt; nil when the perform came from no widget.
        var instanceID: String?
        /// The `WidgetCenter` requests `perform()` made, in order, budgeted.
        var requests: [UserCodeBinding.ReloadRequest]
        /// The performed control, read again at once; nil when the perform came from no control.
        var controlID: String? = nil
        /// The `ControlCenter` requests `perform()` made, in order.
        var controlRequests: [UserCodeBinding.ReloadRequest] = []
    }

    /// Records what a perform owes, inside its transaction.
    /// - Returns: The entry, or nil when the perform causes no reload (no tapped instance or performed control, no
    ///   request).
    static func record(idempotencyKey: String?, instanceID: String?, requests: [UserCodeBinding.ReloadRequest],
                       controlID: String? = nil, controlRequests: [UserCodeBinding.ReloadRequest] = [],
                       committedAt: Date, _ db: Database) throws -> Entry? {
        guard instanceID != nil || !requests.isEmpty || controlID != nil || !controlRequests.isEmpty else { return nil }
        let controlLabels: SQLValue = controlRequests.isEmpty ? .null : .text(labels(controlRequests))
        try db.execute(recordSQL, [idempotencyKey.map(SQLValue.text) ?? .null, instanceID.map(SQLValue.text) ?? .null,
                  .text(labels(requests)), committedAt.sqlValue, controlID.map(SQLValue.text) ?? .null, controlLabels])
        return Entry(id: db.lastInsertRowID, idempotencyKey: idempotencyKey, instanceID: instanceID,
                     requests: requests, controlID: controlID, controlRequests: controlRequests)
    }

    /// The requests' labels as a JSON array of strings.
    private static func labels(_ requests: [UserCodeBinding.ReloadRequest]) -> String {
        EngineCoding.text(strings: requests.map(\.label))
    }

    /// Every entry still owed, in commit order.
    static func owed(_ db: Database) throws -> [Entry] {
        try db.query("""
            SELECT \(columns) FROM \(tableName) WHERE done_at IS NULL ORDER BY id
            """).map(entry)
    }

    /// The entries still owed by the perform that stored `key`.
    static func owed(forKey key: String, _ db: Database) throws -> [Entry] {
        try db.query("""
            SELECT \(columns) FROM \(tableName)
            WHERE idempotency_key = ? AND done_at IS NULL ORDER BY id
            """, [.text(key)]).map(entry)
    }

    /// Marks entries done; entries already done keep their first time.
    ///
    /// One statement per run of consecutive ids: a batch's entries were inserted one after another, so most
    /// batches mark one run. A run holds only ids asked for, so entries between runs (still owed) stay owed.
    static func markDone(_ ids: some Collection<Int64>, at time: Date, _ db: Database) throws {
        let time = time.sqlValue
        for run in consecutiveRuns(ids) {
            try db.execute(markDoneSQL, [time, .integer(run.lowerBound), .integer(run.upperBound)])
        }
    }

    /// `ids`, sorted and without repeats, as runs of consecutive integers.
    static func consecutiveRuns(_ ids: some Collection<Int64>) -> [ClosedRange<Int64>] {
        var runs: [ClosedRange<Int64>] = []
        for id in ids.sorted() {
            guard let last = runs.last else {
                runs.append(id...id)
                continue
            }
            if id <= last.upperBound { continue }   // a repeat
            if id - 1 == last.upperBound {
                runs[runs.count - 1] = last.lowerBound...id
            } else {
                runs.append(id...id)
            }
        }
        return runs
    }

    /// Deletes entries done at or before `cutoff`; owed entries stay however old they are.
    static func purge(doneThrough cutoff: Date, _ db: Database) throws {
        try db.execute(purgeSQL, [cutoff.sqlValue])
    }

    // The statements of every perform and batch, built once (the connection's statement cache is keyed by their
    // text).
    private static let recordSQL = """
        INSERT INTO \(tableName)(idempotency_key, instance_id, requests, committed_at, control_id, control_requests)
        VALUES (?, ?, ?, ?, ?, ?)
        """
    private static let markDoneSQL =
        "UPDATE \(tableName) SET done_at = ? WHERE id BETWEEN ? AND ? AND done_at IS NULL"
    private static let purgeSQL = "DELETE FROM \(tableName) WHERE done_at <= ?"

    private static let columns = "id, idempotency_key, instance_id, requests, control_id, control_requests"

    private static func entry(_ row: Row) throws -> Entry {
        guard let id = row.int64("id"), let requests = try Self.requests(row.string("requests"), column: "requests") else {
            throw EngineError.corruptRow(column: "\(tableName).requests", detail: "expected a JSON array of kinds")
        }
        return Entry(id: id, idempotencyKey: row.string("idempotency_key"), instanceID: row.string("instance_id"),
                     requests: requests, controlID: row.string("control_id"),
                     controlRequests: try Self.requests(row.string("control_requests"), column: "control_requests") ?? [])
    }

    /// The requests a column's JSON array names; nil for NULL.
    private static func requests(_ text: String?, column: String) throws -> [UserCodeBinding.ReloadRequest]? {
        guard let text else { return nil }
        guard let labels = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else {
            throw EngineError.corruptRow(column: "\(tableName).\(column)", detail: "expected a JSON array of kinds")
        }
        return labels.map(UserCodeBinding.ReloadRequest.init(label:))
    }
}
