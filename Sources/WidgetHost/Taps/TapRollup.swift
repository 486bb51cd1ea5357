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
/// One table, `tap_rollups_by_route(quarter, route, taps, suspicious)`, `WITHOUT ROWID` with the group as its
/// primary key: small (quarter hours × routes), it answers reports grouped by route alone or by nothing, the
/// reports dashboards ask for most. Other groupings are answered from the taps: a rollup by every dimension has
/// nearly as many groups per quarter hour as taps, and keeping it cost 40 % of SQLite's own ingestion rate on a
/// fast disk (`Benchmarks/README.md`), for reports that it made only 6× faster.
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
    }

    /// Counts the taps already stored (the migration that adds the rollups runs this once).
    static func backfill(_ db: Database) throws {
        // Floor division, as `quarter(of:)` does: CAST truncates towards zero, so taps before 1970 step down by one.
        let quarter = "(CAST(tapped_at / 900.0 AS INTEGER) - (tapped_at / 900.0 < CAST(tapped_at / 900.0 AS INTEGER)))"
        try db.execute("""
            INSERT INTO tap_rollups_by_route(quarter, route, taps, suspicious)
            SELECT \(quarter), COALESCE(route, ''), count(*), sum(suspicious) FROM taps GROUP BY 1, 2
            """)
    }
}

/// The rollup counts of one batch of taps, summed in memory and added to the tables once per group before the
/// batch's transaction commits.
struct TapRollupBatch {
    struct Group: Hashable {
        var quarter: Int64
        var route: String
    }

    struct Counts {
        var taps: Int64 = 0
        var suspicious: Int64 = 0
    }

    private var groups: [Group: Counts] = [:]

    /// Counts one stored tap.
    mutating func add(quarter: Int64, route: String?, suspicious: Bool) {
        let group = Group(quarter: quarter, route: route ?? TapRollup.unmatchedRoute)
        groups[group, default: Counts()].taps += 1
        if suspicious { groups[group, default: Counts()].suspicious += 1 }
    }

    /// The groups and their counts, by quarter hour then route (the order stores that lock rows take them in).
    var sortedGroups: [(group: Group, counts: Counts)] {
        groups.map { ($0.key, $0.value) }.sorted { a, b in
            a.group.quarter != b.group.quarter ? a.group.quarter < b.group.quarter
                : a.group.route.utf8.lexicographicallyPrecedes(b.group.route.utf8)
        }
    }

    /// Adds the batch's counts to the rollup table, inside the caller's transaction.
    func write(_ db: Database) throws {
        for (group, counts) in groups {
            try db.execute("""
                INSERT INTO tap_rollups_by_route(quarter, route, taps, suspicious) VALUES (?, ?, ?, ?)
                ON CONFLICT(quarter, route) DO UPDATE
                SET taps = taps + excluded.taps, suspicious = suspicious + excluded.suspicious
                """, [.integer(group.quarter), .text(group.route), .integer(counts.taps),
                      .integer(counts.suspicious)])
        }
    }
}
