import DeepLinks
import Foundation
import PostgresStore
import SharedState

/// The tap log on PostgreSQL, shared by every daemon pointed at one database (`--analytics postgres://…`).
///
/// The same tables as ``TapStore``'s (`taps`, `tap_rollups_by_route`, created by ``PostgresTapSchema``) and the
/// same promises (``TapLog``). A batch is routed, and its widgets looked up in this daemon's engine store
/// (placed widgets are per-daemon state), before its transaction opens, so the transaction holds only inserts
/// and the rollup increments, and can be run again whole when PostgreSQL makes it lose a conflict. The rollup
/// rows a batch touches are updated in one fixed order (quarter, then route), so two daemons counting the same
/// quarter hours never deadlock.
public final class PostgresTapLog: TapLog {
    /// The database the taps live in.
    public let pool: PostgresPool
    /// The engine store the taps' widget instances are looked up in.
    public let engineStore: EngineStore
    public let routes: RouteTableHolder

    /// Opens the tap log in a PostgreSQL database, creating or updating its tables.
    /// - Throws: ``PostgresError`` (`.unavailable` when the server cannot be reached).
    public init(pool: PostgresPool, engineStore: EngineStore, routes: RouteTableHolder) throws {
        self.pool = pool
        self.engineStore = engineStore
        self.routes = routes
        try PostgresTapSchema.migrator.migrate(pool)
    }

    @discardableResult
    public func record(batch taps: [Tap]) throws -> [RecordedTap] {
        guard !taps.isEmpty else { return [] }
        let table = routes.table
        struct Row {
            var quarter: Int64
            var route: String?
            var kind: String
            var family: String
            var diagnostic: TapDiagnostic?
        }
        let rows = try engineStore.database.read { db in
            var widgets: [String: (kind: String, family: String)?] = [:]
            return try taps.map { tap in
                guard let quarter = TapRollup.quarter(of: tap.date) else {
                    throw TapError.dateOutOfRange(url: tap.url, date: tap.date.timeIntervalSince1970)
                }
                let (kind, family) = try TapStore.widget(of: tap, cache: &widgets, db)
                let diagnostic = TapDiagnostic.check(source: tap.source, family: family)
                let context = TapContext(source: tap.source, family: WidgetFamilyName(rawValue: family))
                let route = try? table.withMatch(tap.url, context: context) { $0.routeName }.get()
                return Row(quarter: quarter, route: route, kind: kind, family: family, diagnostic: diagnostic)
            }
        }
        var rollups = TapRollupBatch()
        for row in rows { rollups.add(quarter: row.quarter, route: row.route, suspicious: row.diagnostic != nil) }
        let values: [[PostgresValue]] = zip(taps, rows).map { tap, row in
            [.seconds(tap.date), .text(tap.url), .text(orNull: row.route), .text(orNull: tap.instanceID),
             .text(row.kind), .text(row.family), .text(tap.source.rawValue), .text(tap.location.rawValue),
             .integer(row.diagnostic == nil ? 0 : 1), .text(orNull: row.diagnostic?.rawValue)]
        }
        return try pool.transaction { db in
            // The batch's ids first, in one round trip; then the rows, many to a statement.
            let ids = try db.query("SELECT nextval(pg_get_serial_sequence('taps', 'id')) AS id FROM generate_series(1, $1)",
                                   [.integer(Int64(taps.count))]).compactMap { $0.int64("id") }
            guard ids.count == taps.count else {
                throw PostgresError(kind: .server, message: "the taps id sequence gave \(ids.count) ids for \(taps.count) taps")
            }
            var start = 0
            while start < values.count {
                let count = values.count - start >= Self.rowsPerInsert ? Self.rowsPerInsert : 1
                try db.execute(count == 1 ? Self.insertOne : Self.insertMany, (start..<start + count).flatMap { index in
                    [PostgresValue.integer(ids[index])] + values[index]
                })
                start += count
            }
            let recorded = zip(ids, rows).map { id, row in
                RecordedTap(id: id, route: row.route, kind: row.kind, family: row.family, diagnostic: row.diagnostic)
            }
            for (group, counts) in rollups.sortedGroups {
                try db.execute("""
                    INSERT INTO tap_rollups_by_route AS r(quarter, route, taps, suspicious) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (quarter, route) DO UPDATE
                    SET taps = r.taps + excluded.taps, suspicious = r.suspicious + excluded.suspicious
                    """, [.integer(group.quarter), .text(group.route), .integer(counts.taps),
                          .integer(counts.suspicious)])
            }
            return recorded
        }
    }

    /// How many taps one `INSERT` carries (11 parameters each, well under PostgreSQL's 65535); a batch's last
    /// few taps go one to a statement, so only two statements are ever prepared.
    static let rowsPerInsert = 100

    static let insertMany = insertSQL(rows: rowsPerInsert)
    static let insertOne = insertSQL(rows: 1)

    /// `INSERT` of `rows` taps with their ids given.
    static func insertSQL(rows: Int) -> String {
        let tuples = (0..<rows).map { row in
            "(" + (1...11).map { "$\(row * 11 + $0)" }.joined(separator: ", ") + ")"
        }
        return """
            INSERT INTO taps(id, tapped_at, url, route, instance_id, kind, family, source, location, suspicious, diagnostic)
            OVERRIDING SYSTEM VALUE VALUES
            """ + tuples.joined(separator: ", ")
    }

    public func count(from: Date = .distantPast, to: Date = .distantFuture) throws -> Int {
        try pool.withConnection { db in
            try db.queryOne("SELECT count(*) AS n FROM taps WHERE tapped_at >= $1 AND tapped_at < $2",
                            [.seconds(from), .seconds(to)])?.int("n") ?? 0
        }
    }
}

/// The tap log's PostgreSQL tables: ``TapSchema``'s, in PostgreSQL's types (`float8` seconds, `int8` ids).
enum PostgresTapSchema {
    static var migrator: PostgresMigrator {
        var migrator = PostgresMigrator()
        migrator.registerMigration("WidgetHost.taps.1-log") { db in
            try db.execute("""
                CREATE TABLE taps(
                    id int8 GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    tapped_at float8 NOT NULL,
                    url text NOT NULL,
                    route text,
                    instance_id text,
                    kind text NOT NULL,
                    family text NOT NULL,
                    source text NOT NULL,
                    location text NOT NULL,
                    suspicious int4 NOT NULL DEFAULT 0,
                    diagnostic text);
                CREATE INDEX taps_by_time ON taps(tapped_at, route, kind, family, source, location, suspicious);
                CREATE INDEX taps_unmatched ON taps(tapped_at, url) WHERE route IS NULL;
                CREATE INDEX taps_by_instance ON taps(instance_id, tapped_at) WHERE instance_id IS NOT NULL
                """)
        }
        migrator.registerMigration("WidgetHost.taps.2-rollups") { db in
            try db.execute("""
                CREATE TABLE tap_rollups_by_route(
                    quarter int8 NOT NULL,
                    route text NOT NULL,
                    taps int8 NOT NULL,
                    suspicious int8 NOT NULL,
                    PRIMARY KEY (quarter, route))
                """)
        }
        return migrator
    }
}
