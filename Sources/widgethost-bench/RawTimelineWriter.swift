import COpenSSL
import CSQLite
import Foundation

/// The floor of a timeline rebuild: for each configuration, the rows `reloadAllTimelines()` writes (the stored
/// timeline, the configuration's next reload, budget charge and current served list, one reload-log row naming the
/// instances served through their interned list, and that list when the store does not hold it yet) with bare
/// `sqlite3_*` calls on an engine store holding the same configurations and instances, statements prepared once,
/// `batchSize` configurations per `BEGIN IMMEDIATE … COMMIT` as the engine commits them, foreign keys checked as on
/// the engine's connections. The served list is found as the engine finds it: the configuration's `served_digest`
/// when no instance joined or left since its last run, otherwise the instances holding it read in id order (here as
/// one JSON text from `json_group_array`), the SHA-256 of that text (OpenSSL's `EVP_Digest`, as the engine) and the
/// list interned; the run's charges are the marker the engine writes for a run charged to all of them. The timelines
/// written are those the store already holds (the same entries, encoded once, outside the timing): no provider runs,
/// no encoding, no budget decisions, and no instance ids made into values (the engine returns them in its records).
/// ``sameReloadLog(asStoreAt:)`` checks that the two stores' logs agree.
final class RawTimelineWriter {
    private let calls = RawSQLiteCalls(floor: "raw timelines")

    private var db: OpaquePointer?
    private var statements: [OpaquePointer?] = []
    private var configurations: [(key: String, timeline: String)] = []
    /// The served list's key being written (SHA-256, 32 bytes).
    private var digest = [UInt8](repeating: 0, count: 32)
    /// SHA-256 fetched once, as the engine fetches it.
    private let sha256: OpaquePointer?

    init(path: String) throws {
        sha256 = EVP_MD_fetch(nil, "SHA2-256", nil)
        try calls.check(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil), "open")
        try calls.check(sqlite3_exec(db, "PRAGMA synchronous = FULL", nil, nil, nil), "synchronous")
        try calls.check(sqlite3_exec(db, "PRAGMA foreign_keys = ON", nil, nil, nil), "foreign keys")
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
                last_failure = NULL, resolution_diagnostics = '[]', served_digest = ?3 WHERE key = ?2
            """,
            """
            UPDATE configurations SET next_reload_at = ?, next_reload_reason = 'scheduled', deferred = 0,
                charges = json_insert((SELECT json_group_array(value) FROM json_each(charges) WHERE value > ?),
                                      '$[#]', ?)
            WHERE key = ?
            """,
            """
            SELECT json_group_array(id) FROM (SELECT id FROM widget_instances WHERE configuration_key = ? ORDER BY id)
            """,
            "INSERT OR IGNORE INTO reload_log_served(digest, instance_ids) VALUES (?, ?)",
            """
            INSERT INTO reload_log(configuration_key, reason, ran_at, served_id, charged_instance_ids, outcome)
            VALUES (?1, 'all-reload', ?2, (SELECT id FROM reload_log_served WHERE digest = ?3), '*', 'accepted')
            """,
            "SELECT served_digest FROM configurations WHERE key = ?",
        ] {
            var statement: OpaquePointer?
            try calls.check(sqlite3_prepare_v2(db, sql, -1, &statement, nil), sql)
            statements.append(statement)
        }
    }

    deinit {
        for statement in statements { sqlite3_finalize(statement) }
        EVP_MD_free(sha256)
        sqlite3_close_v2(db)
    }

    var configurationCount: Int { configurations.count }

    /// Rewrites every configuration's rows at `now`, `batchSize` configurations per transaction.
    func rewriteAll(now: Double, batchSize: Int) throws {
        for batchStart in stride(from: 0, to: configurations.count, by: batchSize) {
            try calls.step(statements[0])
            for (key, timeline) in configurations[batchStart..<min(batchStart + batchSize, configurations.count)] {
                try findServedList(key: key)
                RawSQLiteCalls.bind(text: timeline, to: statements[2], at: 1)
                RawSQLiteCalls.bind(text: key, to: statements[2], at: 2)
                sqlite3_bind_blob(statements[2], 3, digest, Int32(digest.count), csqlite_transient())
                try calls.step(statements[2])
                sqlite3_bind_double(statements[3], 1, now + 3600)
                sqlite3_bind_double(statements[3], 2, now - 86400)
                sqlite3_bind_double(statements[3], 3, now)
                RawSQLiteCalls.bind(text: key, to: statements[3], at: 4)
                try calls.step(statements[3])
                try logRun(key: key, now: now)
            }
            try calls.step(statements[1])
        }
    }

    /// Sets ``digest`` to the key of the list of instances holding the configuration: the configuration's
    /// `served_digest` when no instance joined or left since its last run, as the engine finds it; otherwise the list
    /// read as one text, its SHA-256, and the list interned.
    private func findServedList(key: String) throws {
        let (current, served, intern) = (statements[7], statements[4], statements[5])
        RawSQLiteCalls.bind(text: key, to: current, at: 1)
        defer { sqlite3_reset(current) }
        if sqlite3_step(current) == SQLITE_ROW, sqlite3_column_bytes(current, 0) == digest.count,
           let bytes = sqlite3_column_blob(current, 0) {
            digest.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: 32)) }
            return
        }
        defer { sqlite3_reset(served) }
        RawSQLiteCalls.bind(text: key, to: served, at: 1)
        guard sqlite3_step(served) == SQLITE_ROW, let text = sqlite3_column_text(served, 0) else {
            throw BenchmarkUsage(message: "raw timelines: no served list for \(key)")
        }
        let length = Int(sqlite3_column_bytes(served, 0))
        var written: UInt32 = 0
        guard EVP_Digest(text, length, &digest, &written, sha256, nil) == 1, written == digest.count else {
            throw BenchmarkUsage(message: "raw timelines: SHA-256 failed")
        }
        // The list's text stays valid until `served` is reset, after the insert.
        sqlite3_bind_blob(intern, 1, digest, Int32(digest.count), csqlite_transient())
        sqlite3_bind_text(intern, 2, UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self), Int32(length),
                          csqlite_static())
        try calls.step(intern)
    }

    /// Writes one run's reload-log row, naming the list ``findServedList(key:)`` found.
    private func logRun(key: String, now: Double) throws {
        let log = statements[6]
        RawSQLiteCalls.bind(text: key, to: log, at: 1)
        sqlite3_bind_double(log, 2, now)
        sqlite3_bind_blob(log, 3, digest, Int32(digest.count), csqlite_transient())
        try calls.step(log)
    }

    /// Throws unless the engine's store at `path` holds the same reload log as this floor's, but for the sequence
    /// numbers: the same runs (configuration, reason, time, charges, outcome) naming the same lists (digest and text),
    /// and the same lists interned.
    func sameReloadLog(asStoreAt path: String) throws {
        func rows(_ handle: OpaquePointer?, _ sql: String) throws -> [[String]] {
            var statement: OpaquePointer?
            try calls.check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil), sql)
            defer { sqlite3_finalize(statement) }
            var rows: [[String]] = []
            while sqlite3_step(statement) == SQLITE_ROW {
                rows.append((0..<sqlite3_column_count(statement)).map { column in
                    sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "NULL"
                })
            }
            return rows
        }
        var engine: OpaquePointer?
        try calls.check(sqlite3_open_v2(path, &engine, SQLITE_OPEN_READONLY, nil), "open \(path)")
        defer { sqlite3_close_v2(engine) }
        for sql in [
            """
            SELECT log.configuration_key, log.reason, log.ran_at, hex(served.digest), served.instance_ids,
                log.charged_instance_ids, log.outcome
            FROM reload_log AS log JOIN reload_log_served AS served ON served.id = log.served_id ORDER BY log.sequence
            """,
            "SELECT hex(digest), instance_ids FROM reload_log_served ORDER BY digest",
            "SELECT key, hex(served_digest) FROM configurations ORDER BY key",
        ] where try rows(db, sql) != rows(engine, sql) {
            throw BenchmarkUsage(message: "raw timelines: the floor's reload log differs from the engine's: \(sql)")
        }
    }
}
