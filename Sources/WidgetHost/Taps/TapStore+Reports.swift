import Foundation
import SharedState

/// Where a report's counts are read from.
package enum TapReportSource: Sendable, Hashable {
    /// The quarter-hour rollups when they can answer the query exactly, the taps otherwise.
    case automatic
    /// The taps themselves, always.
    case rawRows
}

extension TapStore {
    /// Counts taps as `query` says.
    ///
    /// The answer comes from the per-quarter-hour rollups (``TapRollup``) when they give exactly what the taps
    /// would: the range's given ends fall on UTC quarter hours, and the time zone's offsets and transitions in the
    /// range are whole quarter hours (every zone in use today). Otherwise one SQL `GROUP BY` runs over the
    /// `taps_by_time` covering index. Either way the report is the same.
    /// - Throws: A store error.
    public func report(_ query: TapReportQuery) throws -> TapReport {
        try report(query, source: .automatic)
    }

    /// Counts taps as `query` says, from the source asked for (tests compare the two).
    package func report(_ query: TapReportQuery, source: TapReportSource) throws -> TapReport {
        try database.read { db in
            let range = try Self.range(query, db)
            if source == .automatic, let plan = TapReportPlan.rollups(for: query, range: range) {
                return TapReport(query: query, rows: try plan.rows(db))
            }
            return TapReport(query: query, rows: try TapReportPlan.rawRows(for: query, range: range).rows(db))
        }
    }

    /// Whether `query` would be answered from the rollups, and from which table (nil: from the taps).
    package func rollupTable(answering query: TapReportQuery) throws -> String? {
        try database.read { db in
            TapReportPlan.rollups(for: query, range: try Self.range(query, db))?.table
        }
    }

    /// `AND column = ?` for each filter, in a fixed column order, its value appended to `arguments`; the unmatched
    /// route is `route IS NULL`.
    static func filterSQL(_ filters: [TapDimension: String], arguments: inout [SQLValue]) -> String {
        var sql = ""
        for dimension in TapDimension.allCases {
            guard let value = filters[dimension] else { continue }
            if dimension == .route, value == TapReport.unmatchedRoute {
                sql += " AND route IS NULL"
            } else {
                sql += " AND \(dimension.rawValue) = ?"
                arguments.append(.text(value))
            }
        }
        return sql
    }

    /// The query's range with open ends closed by the first and last stored taps
    /// (``TapReportQuery/closedRange(firstTap:lastTap:)``).
    static func range(_ query: TapReportQuery, _ db: Database) throws -> (from: Date, to: Date) {
        guard query.hasOpenEnd else { return query.closedRange(firstTap: nil, lastTap: nil) }
        let row = try db.queryOne(firstAndLastTapSQL)
        return query.closedRange(firstTap: row?.date("first"), lastTap: row?.date("last"))
    }

    /// The first and last tap instants, each read from one end of the `taps_by_time` index.
    ///
    /// One subquery each: SQLite answers a lone `MIN` or `MAX` from an index end, but `MIN(x), MAX(x)` in one
    /// `SELECT` scans the whole index, which over a million taps costs more than the report itself.
    package static let firstAndLastTapSQL = """
        SELECT (SELECT MIN(tapped_at) FROM taps) AS first, (SELECT MAX(tapped_at) FROM taps) AS last
        """
}
