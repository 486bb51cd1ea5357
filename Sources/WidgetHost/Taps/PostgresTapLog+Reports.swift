import Foundation
import PostgresStore
import Push
import SharedState

extension PostgresTapLog {
    /// Counts taps as `query` says, from the rollups when they answer it exactly (as ``TapStore`` decides),
    /// from the taps otherwise; both in one snapshot (`REPEATABLE READ`), so the open ends and the counts agree.
    public func report(_ query: TapReportQuery) throws -> TapReport {
        try report(query, source: .automatic)
    }

    /// Counts taps as `query` says, from the source asked for (tests compare the two).
    package func report(_ query: TapReportQuery, source: TapReportSource) throws -> TapReport {
        try pool.transaction(isolation: .repeatableRead) { db in
            let range = try Self.range(query, db)
            let plan = source == .automatic ? TapReportPlan.rollups(for: query, range: range, dialect: .postgres) : nil
            let chosen = plan ?? TapReportPlan.rawRows(for: query, range: range, dialect: .postgres)
            let rows = try db.query(PostgresPlaceholders.numbered(chosen.sql), chosen.arguments.map(PostgresValue.init))
            return TapReport(query: query, rows: rows.compactMap { row in
                chosen.reportRow(taps: row.int("taps"), suspicious: row.int("suspicious"), string: row.string,
                                 bucketIndex: row.int64("g0"))
            })
        }
    }

    /// Whether `query` would be answered from the rollups, and from which table (nil: from the taps).
    package func rollupTable(answering query: TapReportQuery) throws -> String? {
        try pool.withConnection { db in
            TapReportPlan.rollups(for: query, range: try Self.range(query, db), dialect: .postgres)?.table
        }
    }

    public func unmatchedURLs(from: Date? = nil, to: Date? = nil, limit: Int = 20) throws -> [UnmatchedURL] {
        let table = routes.table
        let rows = try pool.transaction(isolation: .repeatableRead) { db in
            let range = try Self.range(TapReportQuery(from: from, to: to), db)
            return try db.query("""
                SELECT url, count(*) AS taps, MAX(tapped_at) AS last FROM taps
                WHERE route IS NULL AND tapped_at >= $1 AND tapped_at < $2
                GROUP BY url ORDER BY taps DESC, url COLLATE "C" LIMIT $3
                """, [.seconds(range.from), .seconds(range.to), .integer(Int64(max(0, limit)))])
        }
        return rows.map { row in
            let url = row.string("url") ?? ""
            return UnmatchedURL(url: url, taps: row.int("taps") ?? 0, lastTapped: row.date("last") ?? .distantPast,
                                nearest: NearestRoute.find(for: url, in: table))
        }
    }

    /// The query's range with open ends closed by the first and last stored taps
    /// (``TapReportQuery/closedRange(firstTap:lastTap:)``).
    static func range(_ query: TapReportQuery, _ db: PostgresConnection) throws -> (from: Date, to: Date) {
        guard query.hasOpenEnd else { return query.closedRange(firstTap: nil, lastTap: nil) }
        let row = try db.queryOne("SELECT MIN(tapped_at) AS first, MAX(tapped_at) AS last FROM taps")
        return query.closedRange(firstTap: row?.date("first"), lastTap: row?.date("last"))
    }
}
