import CSQLite
import Foundation
import WidgetHost

/// The floor of tap ingestion: the same tap rows, in the same batches, written with bare `sqlite3_*` calls into
/// the same table and indexes as the tap log (statements prepared once, one `BEGIN IMMEDIATE … COMMIT` per batch,
/// WAL, `synchronous = FULL`). With `rollups`, each batch also adds its counts per quarter hour and route to the
/// same rollup table the tap log keeps, summed in memory first as the tap log does. Routes are given, not routed: the
/// floor is what any tap log must at least write.
final class RawTapWriter {
    private let calls = RawSQLiteCalls(floor: "raw taps")

    /// One tap as stored.
    struct Row {
        var date: Double
        var url: String
        var route: String?
        var kind: String
        var family: String
        var source: String
        var location: String
        var suspicious: Bool
    }

    private var db: OpaquePointer?
    private var statements: [OpaquePointer?] = []
    private let rollups: Bool

    init(path: String, rollups: Bool) throws {
        self.rollups = rollups
        try calls.check(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil), "open")
        for sql in [
            "PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL",
            """
            CREATE TABLE taps(id INTEGER PRIMARY KEY, tapped_at REAL NOT NULL, url TEXT NOT NULL, route TEXT,
                instance_id TEXT, kind TEXT NOT NULL, family TEXT NOT NULL, source TEXT NOT NULL,
                location TEXT NOT NULL, suspicious INTEGER NOT NULL DEFAULT 0, diagnostic TEXT)
            """,
            "CREATE INDEX taps_by_time ON taps(tapped_at, route, kind, family, source, location, suspicious)",
            "CREATE INDEX taps_unmatched ON taps(tapped_at, url) WHERE route IS NULL",
            "CREATE INDEX taps_by_instance ON taps(instance_id, tapped_at) WHERE instance_id IS NOT NULL",
            """
            CREATE TABLE tap_rollups_by_route(quarter INTEGER NOT NULL, route TEXT NOT NULL, taps INTEGER NOT NULL,
                suspicious INTEGER NOT NULL, PRIMARY KEY (quarter, route)) WITHOUT ROWID
            """,
        ] {
            try calls.check(sqlite3_exec(db, sql, nil, nil, nil), sql)
        }
        for sql in [
            "BEGIN IMMEDIATE", "COMMIT",
            """
            INSERT INTO taps(tapped_at, url, route, instance_id, kind, family, source, location, suspicious,
                diagnostic) VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)
            """,
            """
            INSERT INTO tap_rollups_by_route(quarter, route, taps, suspicious) VALUES (?, ?, ?, ?)
            ON CONFLICT(quarter, route) DO UPDATE
            SET taps = taps + excluded.taps, suspicious = suspicious + excluded.suspicious
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

    private struct Group: Hashable {
        var quarter: Int64
        var route: String
    }

    /// Writes `rows` in one transaction.
    func write(_ rows: [Row]) throws {
        try calls.step(statements[0])
        var groups: [Group: (taps: Int64, suspicious: Int64)] = [:]
        let insert = statements[2]
        for row in rows {
            sqlite3_bind_double(insert, 1, row.date)
            RawSQLiteCalls.bind(text: row.url, to: insert, at: 2)
            if let route = row.route {
                RawSQLiteCalls.bind(text: route, to: insert, at: 3)
            } else {
                sqlite3_bind_null(insert, 3)
            }
            for (index, text) in [row.kind, row.family, row.source, row.location].enumerated() {
                RawSQLiteCalls.bind(text: text, to: insert, at: Int32(index + 4))
            }
            sqlite3_bind_int(insert, 8, row.suspicious ? 1 : 0)
            if row.suspicious {
                RawSQLiteCalls.bind(text: "link-on-family-without-links", to: insert, at: 9)
            } else {
                sqlite3_bind_null(insert, 9)
            }
            try calls.step(insert)
            guard rollups else { continue }
            let quarter = Int64((row.date / 900).rounded(.down))
            let group = Group(quarter: quarter, route: row.route ?? "")
            groups[group, default: (0, 0)].taps += 1
            groups[group, default: (0, 0)].suspicious += row.suspicious ? 1 : 0
        }
        for (group, counts) in groups {
            let statement = statements[3]
            sqlite3_bind_int64(statement, 1, group.quarter)
            RawSQLiteCalls.bind(text: group.route, to: statement, at: 2)
            sqlite3_bind_int64(statement, 3, counts.taps)
            sqlite3_bind_int64(statement, 4, counts.suspicious)
            try calls.step(statement)
        }
        try calls.step(statements[1])
    }

    /// Route × UTC day over every tap, one `GROUP BY` over the covering index: the raw answer of the report.
    func routeByDay() throws -> Int {
        var statement: OpaquePointer?
        let sql = """
            SELECT CAST(tapped_at / 86400 AS INTEGER) AS day, COALESCE(route, '(unmatched)'), count(*), sum(suspicious)
            FROM taps GROUP BY 1, 2 ORDER BY 1, 2
            """
        try calls.check(sqlite3_prepare_v2(db, sql, -1, &statement, nil), sql)
        defer { sqlite3_finalize(statement) }
        var rows = 0
        while sqlite3_step(statement) == SQLITE_ROW { rows += 1 }
        return rows
    }
}
