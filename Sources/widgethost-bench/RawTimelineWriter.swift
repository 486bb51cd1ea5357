import CSQLite
import Foundation

/// The floor of a timeline rebuild: for each configuration, the rows `reloadAllTimelines()` writes (the stored
/// timeline, the configuration's next reload and budget charge, one reload-log row naming the instances served,
/// read from the store as the engine reads them, its charges as the engine writes a run charged to all of them) with bare `sqlite3_*` calls on an engine store holding the same configurations and instances, statements prepared once,
/// `batchSize` configurations per `BEGIN IMMEDIATE … COMMIT` as the engine commits them. The timelines written are
/// those the store already holds (the same entries, encoded once, outside the timing): no provider runs, no
/// encoding, no budget decisions.
final class RawTimelineWriter {
    private let calls = RawSQLiteCalls(floor: "raw timelines")

    private var db: OpaquePointer?
    private var statements: [OpaquePointer?] = []
    private var configurations: [(key: String, timeline: String)] = []

    init(path: String) throws {
        try calls.check(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil), "open")
        try calls.check(sqlite3_exec(db, "PRAGMA synchronous = FULL", nil, nil, nil), "synchronous")
        var select: OpaquePointer?
        try calls.check(sqlite3_prepare_v2(db, "SELECT key, timeline FROM configurations ORDER BY key", -1, &select, nil),
                  "select")
        while sqlite3_step(select) == SQLITE_ROW {
            configurations.append((String(cString: sqlite3_column_text(select, 0)),
                                   String(cString: sqlite3_column_text(select, 1))))
        }
        sqlite3_finalize(select)
        for sql in [
            "BEGIN IMMEDIATE", "COMMIT",
            """
            UPDATE configurations SET timeline = ?, reordered = 0, provider_runs = provider_runs + 1,
                last_failure = NULL, resolution_diagnostics = '[]' WHERE key = ?
            """,
            """
            UPDATE configurations SET next_reload_at = ?, next_reload_reason = 'scheduled', deferred = 0,
                charges = json_insert((SELECT json_group_array(value) FROM json_each(charges) WHERE value > ?),
                                      '$[#]', ?)
            WHERE key = ?
            """,
            """
            INSERT INTO reload_log(configuration_key, reason, ran_at, instance_ids, charged_instance_ids, outcome)
            SELECT ?1, 'all-reload', ?2, served, '*', 'accepted' FROM (
                SELECT json_group_array(id) AS served FROM (
                    SELECT id FROM widget_instances WHERE configuration_key = ?1 ORDER BY id))
            """,
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

    var configurationCount: Int { configurations.count }

    /// Rewrites every configuration's rows at `now`, `batchSize` configurations per transaction.
    func rewriteAll(now: Double, batchSize: Int) throws {
        for batchStart in stride(from: 0, to: configurations.count, by: batchSize) {
            try calls.step(statements[0])
            for (key, timeline) in configurations[batchStart..<min(batchStart + batchSize, configurations.count)] {
                sqlite3_bind_text(statements[2], 1, timeline, -1, csqlite_transient())
                sqlite3_bind_text(statements[2], 2, key, -1, csqlite_transient())
                try calls.step(statements[2])
                sqlite3_bind_double(statements[3], 1, now + 3600)
                sqlite3_bind_double(statements[3], 2, now - 86400)
                sqlite3_bind_double(statements[3], 3, now)
                sqlite3_bind_text(statements[3], 4, key, -1, csqlite_transient())
                try calls.step(statements[3])
                sqlite3_bind_text(statements[4], 1, key, -1, csqlite_transient())
                sqlite3_bind_double(statements[4], 2, now)
                try calls.step(statements[4])
            }
            try calls.step(statements[1])
        }
    }
}
