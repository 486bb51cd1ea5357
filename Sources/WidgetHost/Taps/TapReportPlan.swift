import Foundation
import SharedState

/// The SQL that answers one tap report, over the taps or over the rollups, and the reading of its rows.
///
/// Both shapes group the same way: local time is the row's instant plus the zone's offset at that instant (a
/// `CASE` over the zone's transitions in the range), buckets are `floor(local / size)`, and the route of a tap
/// that matched none reads as ``TapReport/unmatchedRoute``. Over the rollups the instant is the quarter hour's
/// start, which is exact only when every offset and transition in the range is a whole quarter hour
/// (``rollups(for:range:)`` checks that).
struct TapReportPlan {
    /// The SQL spoken by the store that runs the plan; the plans differ only where the two disagree.
    enum Dialect {
        /// `?` parameters; `CAST(x AS INTEGER)` truncates towards zero.
        case sqlite
        /// `$n` parameters (``TapReportPlan/sql``'s `?`s are numbered by ``postgresSQL``); `floor`; text ordered
        /// byte by byte (`COLLATE "C"`), as SQLite orders it, whatever the database's collation.
        case postgres
    }

    let query: TapReportQuery
    let dialect: Dialect
    /// The table read: `taps` or `tap_rollups_by_route`.
    let table: String
    let sql: String
    let arguments: [SQLValue]

    /// The plan over the taps themselves, which answers every query.
    static func rawRows(for query: TapReportQuery, range: (from: Date, to: Date),
                        dialect: Dialect = .sqlite) -> TapReportPlan {
        var arguments: [SQLValue] = []
        let offsets = ZoneOffsets(query.timeZone, from: range.from, to: range.to)
        let local = offsets.localTimeSQL(instant: "tapped_at", arguments: &arguments)
        arguments += [range.from.sqlValue, range.to.sqlValue]
        // Only the covering index's columns are read, so the scan never touches the table.
        let rows = """
            SELECT tapped_at, COALESCE(route, '\(TapReport.unmatchedRoute)') AS route, kind, family, source, location,
                1 AS taps, suspicious, \(local) AS local
            FROM taps WHERE tapped_at >= ? AND tapped_at < ?
            """ + TapStore.filterSQL(query.filters, arguments: &arguments)
        return TapReportPlan(query: query, dialect: dialect, table: "taps",
                             sql: grouped(query, rows: rows, dialect: dialect), arguments: arguments)
    }

    /// The plan over the rollups, or nil when they cannot answer the query exactly: it groups by a dimension
    /// or filters by a dimension other than the route, an end given falls inside a quarter hour, or the zone is
    /// offset by part of one.
    static func rollups(for query: TapReportQuery, range: (from: Date, to: Date),
                        dialect: Dialect = .sqlite) -> TapReportPlan? {
        guard query.dimensions.allSatisfy({ $0 == .route }), query.filters.keys.allSatisfy({ $0 == .route }) else {
            return nil
        }
        var bounds: [String] = []
        var arguments: [SQLValue] = []
        var boundArguments: [SQLValue] = []
        if let route = query.filters[.route] {
            bounds.append("route = ?")
            boundArguments.append(.text(route == TapReport.unmatchedRoute ? TapRollup.unmatchedRoute : route))
        }
        // A given end must fall on a quarter hour; an open end is the first or last tap, and every tap counts.
        for (end, comparison) in [(query.from, ">="), (query.to, "<")] {
            guard let end else { continue }
            guard let quarter = TapRollup.quarter(of: end),
                  Double(quarter) * Double(TapRollup.quarterSeconds) == end.timeIntervalSince1970 else { return nil }
            bounds.append("quarter \(comparison) ?")
            boundArguments.append(.integer(quarter))
        }
        guard let first = TapRollup.quarter(of: range.from), let last = TapRollup.quarter(of: range.to) else {
            return nil
        }
        let quarterSeconds = Double(TapRollup.quarterSeconds)
        let offsets = ZoneOffsets(query.timeZone, from: Date(timeIntervalSince1970: Double(first) * quarterSeconds),
                                  to: Date(timeIntervalSince1970: Double(last + 1) * quarterSeconds))
        guard offsets.areWholeQuarterHours else { return nil }
        let local = offsets.localTimeSQL(instant: "quarter * \(TapRollup.quarterSeconds)", arguments: &arguments)
        arguments += boundArguments
        let table = "tap_rollups_by_route"
        let rows = """
            SELECT CASE route WHEN '\(TapRollup.unmatchedRoute)' THEN '\(TapReport.unmatchedRoute)' ELSE route END
                AS route, taps, suspicious, \(local) AS local
            FROM \(table)
            """ + (bounds.isEmpty ? "" : " WHERE " + bounds.joined(separator: " AND "))
        return TapReportPlan(query: query, dialect: dialect, table: table,
                             sql: grouped(query, rows: rows, dialect: dialect), arguments: arguments)
    }

    /// The `GROUP BY` over `rows`, which have a `route` column, the other dimensions' columns, `taps`, `suspicious`
    /// and `local`.
    private static func grouped(_ query: TapReportQuery, rows: String, dialect: Dialect) -> String {
        var columns: [String] = []
        if let bucket = query.bucket {
            let quotient = "local / \(bucket.seconds).0"
            switch dialect {
            case .sqlite:
                // Floor division: CAST truncates towards zero, so instants before 1970 step down by one.
                columns.append("(CAST(\(quotient) AS INTEGER) - (\(quotient) < CAST(\(quotient) AS INTEGER)))")
            case .postgres:
                columns.append("floor(\(quotient))::int8")
            }
        }
        columns += query.dimensions.map(\.rawValue)
        let names = columns.indices.map { "g\($0)" }
        let select = zip(columns, names).map { "\($0) AS \($1)" }
            + ["sum(taps) AS taps", "sum(suspicious) AS suspicious"]
        // PostgreSQL orders by an output name only when it stands alone, so a collated column is named again.
        let ordering = zip(columns, names).enumerated().map { index, pair in
            dialect == .postgres && (index > 0 || query.bucket == nil) ? pair.0 + " COLLATE \"C\"" : pair.1
        }
        let grouping = names.isEmpty ? ""
            : " GROUP BY \(names.joined(separator: ", ")) ORDER BY \(ordering.joined(separator: ", "))"
        return "SELECT \(select.joined(separator: ", ")) FROM (\(rows)) AS tap_rows" + grouping
    }

    /// Runs the SQL and reads one report row per group.
    func rows(_ db: Database) throws -> [TapReport.Row] {
        try db.query(sql, arguments).compactMap { row in
            reportRow(taps: row.int("taps"), suspicious: row.int("suspicious"), string: row.string,
                      bucketIndex: row.int64("g0"))
        }
    }

    /// One report row from a result row's columns, nil for a group without taps.
    func reportRow(taps: Int?, suspicious: Int?, string: (String) -> String?, bucketIndex: Int64?) -> TapReport.Row? {
        let offset = query.bucket == nil ? 0 : 1
        guard let taps, taps > 0 else { return nil }
        var out = TapReport.Row(taps: taps, suspicious: suspicious ?? 0)
        for (index, dimension) in query.dimensions.enumerated() {
            let value = string("g\(index + offset)")
            switch dimension {
            case .route: out.route = value
            case .kind: out.kind = value
            case .family: out.family = value
            case .source: out.source = value
            case .location: out.location = value
            }
        }
        if let bucket = query.bucket, let index = bucketIndex {
            let bucketed = TapBucketing.bucket(index: index, size: bucket, timeZone: query.timeZone)
            out.bucketStart = bucketed.start
            out.bucket = bucketed.label
        }
        return out
    }
}

/// A zone's offset from UTC over a range: the offset at its start and each transition inside it.
struct ZoneOffsets {
    let first: Int
    let transitions: [(at: Date, offset: Int)]

    init(_ zone: TimeZone, from: Date, to: Date) {
        var transitions: [(at: Date, offset: Int)] = []
        var cursor = from
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < to, transitions.count < 1000 {
            transitions.append((next, zone.secondsFromGMT(for: next)))
            cursor = next
        }
        first = zone.secondsFromGMT(for: from)
        self.transitions = transitions
    }

    /// Whether every offset, and every transition instant, is a whole number of quarter hours.
    var areWholeQuarterHours: Bool {
        let quarter = Int(TapRollup.quarterSeconds)
        return first % quarter == 0 && transitions.allSatisfy { transition in
            transition.offset % quarter == 0
                && transition.at.timeIntervalSince1970.truncatingRemainder(dividingBy: Double(quarter)) == 0
        }
    }

    /// SQL for the local wall-clock time in seconds of `instant` (an SQL expression of seconds since 1970).
    func localTimeSQL(instant: String, arguments: inout [SQLValue]) -> String {
        guard !transitions.isEmpty else {
            arguments.append(.integer(Int64(first)))
            return "(\(instant) + ?)"
        }
        var sql = "(\(instant) + CASE"
        var previous = first
        for transition in transitions {
            sql += " WHEN \(instant) < ? THEN ?"
            arguments += [transition.at.sqlValue, .integer(Int64(previous))]
            previous = transition.offset
        }
        arguments.append(.integer(Int64(previous)))
        return sql + " ELSE ? END)"
    }
}
