import Foundation
import SharedState

/// Tap counts per UTC quarter hour, kept at ingestion in the same transaction as the taps they count, so that a
/// report answered from them never disagrees with the log.
///
/// Why quarter hours: every time zone in use today is offset from UTC by a whole number of quarter hours
/// (`Asia/Kathmandu` +5:45, `Australia/Lord_Howe` switching by 30 minutes), and its transitions fall on quarter
/// hours, so a UTC quarter hour lies wholly inside one local hour and one local day of any such zone, before and
/// after a daylight-saving change. Local hour and day buckets summed from quarter hours are therefore exact.
///
/// Two tables, each `WITHOUT ROWID` with the group as its primary key:
/// - `tap_rollups_by_route(quarter, route, taps, suspicious)`: small (quarter hours × routes), answers reports
///   grouped by route alone (or by nothing);
/// - `tap_rollups(quarter, route, kind, family, source, location, taps, suspicious)`: answers any grouping.
///
/// `quarter` is `floor(tapped_at / 900)`. A tap that matched no route is counted under the route `''`, which no
/// route can be named (route names are letters, digits, `.`, `_` and `-`); primary-key columns cannot hold NULL.
enum TapRollup {
    /// The length of a rollup's time slot.
    static let quarterSeconds: Int64 = 900
    /// The `route` value of taps that matched no route.
    static let unmatchedRoute = ""

    /// The quarter hour holding `date`, or nil when it is too far from 1970 to be counted.
    static func quarter(of date: Date) -> Int64? {
        let quarter = (date.timeIntervalSince1970 / Double(quarterSeconds)).rounded(.down)
        // 2^53 quarter hours is beyond any date Foundation can print; the bound keeps the conversion exact.
        guard quarter.isFinite, abs(quarter) < 9_007_199_254_740_992 else { return nil }
        return Int64(quarter)
    }

    static func createTables(_ db: Database) throws {
        try db.execute("""
            CREATE TABLE tap_rollups_by_route(
                quarter INTEGER NOT NULL,
                route TEXT NOT NULL,
                taps INTEGER NOT NULL,
                suspicious INTEGER NOT NULL,
                PRIMARY KEY (quarter, route)) WITHOUT ROWID
            """)
        try db.execute("""
            CREATE TABLE tap_rollups(
                quarter INTEGER NOT NULL,
                route TEXT NOT NULL,
                kind TEXT NOT NULL,
                family TEXT NOT NULL,
                source TEXT NOT NULL,
                location TEXT NOT NULL,
                taps INTEGER NOT NULL,
                suspicious INTEGER NOT NULL,
                PRIMARY KEY (quarter, route, kind, family, source, location)) WITHOUT ROWID
            """)
    }

    /// Counts the taps already stored (the migration that adds the rollups runs this once).
    static func backfill(_ db: Database) throws {
        // Floor division, as `quarter(of:)` does: CAST truncates towards zero, so taps before 1970 step down by one.
        let quarter = "(CAST(tapped_at / 900.0 AS INTEGER) - (tapped_at / 900.0 < CAST(tapped_at / 900.0 AS INTEGER)))"
        try db.execute("""
            INSERT INTO tap_rollups(quarter, route, kind, family, source, location, taps, suspicious)
            SELECT \(quarter), COALESCE(route, ''), kind, family, source, location, count(*), sum(suspicious)
            FROM taps GROUP BY 1, 2, 3, 4, 5, 6
            """)
        try db.execute("""
            INSERT INTO tap_rollups_by_route(quarter, route, taps, suspicious)
            SELECT quarter, route, sum(taps), sum(suspicious) FROM tap_rollups GROUP BY quarter, route
            """)
    }
}

/// The rollup counts of one batch of taps, summed in memory and added to the tables once per group before the
/// batch's transaction commits.
struct TapRollupBatch {
    struct Group: Hashable {
        var quarter: Int64
        var route: String
        var kind: String
        var family: String
        var source: String
        var location: String
    }

    struct RouteGroup: Hashable {
        var quarter: Int64
        var route: String
    }

    struct Counts {
        var taps: Int64 = 0
        var suspicious: Int64 = 0

        mutating func add(suspicious isSuspicious: Bool) {
            taps += 1
            if isSuspicious { suspicious += 1 }
        }
    }

    private var groups: [Group: Counts] = [:]
    private var routeGroups: [RouteGroup: Counts] = [:]

    /// Counts one stored tap.
    mutating func add(quarter: Int64, route: String?, kind: String, family: String, source: String,
                      location: String, suspicious: Bool) {
        let route = route ?? TapRollup.unmatchedRoute
        groups[Group(quarter: quarter, route: route, kind: kind, family: family, source: source,
                     location: location), default: Counts()].add(suspicious: suspicious)
        routeGroups[RouteGroup(quarter: quarter, route: route), default: Counts()].add(suspicious: suspicious)
    }

    /// Adds the batch's counts to the rollup tables, inside the caller's transaction.
    func write(_ db: Database) throws {
        for (group, counts) in routeGroups {
            try db.execute("""
                INSERT INTO tap_rollups_by_route(quarter, route, taps, suspicious) VALUES (?, ?, ?, ?)
                ON CONFLICT(quarter, route) DO UPDATE
                SET taps = taps + excluded.taps, suspicious = suspicious + excluded.suspicious
                """, [.integer(group.quarter), .text(group.route), .integer(counts.taps),
                      .integer(counts.suspicious)])
        }
        for (group, counts) in groups {
            try db.execute("""
                INSERT INTO tap_rollups(quarter, route, kind, family, source, location, taps, suspicious)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(quarter, route, kind, family, source, location) DO UPDATE
                SET taps = taps + excluded.taps, suspicious = suspicious + excluded.suspicious
                """, [.integer(group.quarter), .text(group.route), .text(group.kind), .text(group.family),
                      .text(group.source), .text(group.location), .integer(counts.taps),
                      .integer(counts.suspicious)])
        }
    }
}
