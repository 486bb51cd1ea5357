import Foundation
import SharedState

extension TapStore {
    /// Counts taps as `query` says, with one SQL `GROUP BY` over the `taps_by_time` covering index.
    /// - Throws: A store error.
    public func report(_ query: TapReportQuery) throws -> TapReport {
        try database.read { db in
            let range = try Self.range(query, db)
            var arguments: [SQLValue] = []
            let local = Self.localTimeSQL(query.timeZone, from: range.from, to: range.to, arguments: &arguments)
            arguments += [range.from.sqlValue, range.to.sqlValue]
            var columns: [String] = []
            if let bucket = query.bucket {
                // Floor division: CAST truncates towards zero, so taps before 1970 step down by one.
                let quotient = "local / \(bucket.seconds)"
                columns.append("(CAST(\(quotient) AS INTEGER) - (\(quotient) < CAST(\(quotient) AS INTEGER)))")
            }
            columns += query.dimensions.map {
                $0 == .route ? "COALESCE(route, '\(TapReport.unmatchedRoute)')" : $0.rawValue
            }
            let names = columns.indices.map { "g\($0)" }
            let select = zip(columns, names).map { "\($0) AS \($1)" } + ["count(*) AS taps", "sum(suspicious) AS suspicious"]
            let grouping = names.isEmpty ? "" : " GROUP BY \(names.joined(separator: ", ")) ORDER BY \(names.joined(separator: ", "))"
            // Only the covering index's columns are read, so the scan never touches the table.
            let sql = """
                SELECT \(select.joined(separator: ", ")) FROM (
                    SELECT tapped_at, route, kind, family, source, location, suspicious, \(local) AS local
                    FROM taps WHERE tapped_at >= ? AND tapped_at < ?\(Self.filterSQL(query.filters, arguments: &arguments)))
                """ + grouping
            let offset = query.bucket == nil ? 0 : 1
            return TapReport(query: query, rows: try db.query(sql, arguments).compactMap { row in
                guard let taps = row.int("taps"), taps > 0 else { return nil }
                var out = TapReport.Row(taps: taps, suspicious: row.int("suspicious") ?? 0)
                for (index, dimension) in query.dimensions.enumerated() {
                    let value = row.string("g\(index + offset)")
                    switch dimension {
                    case .route: out.route = value
                    case .kind: out.kind = value
                    case .family: out.family = value
                    case .source: out.source = value
                    case .location: out.location = value
                    }
                }
                if let bucket = query.bucket, let index = row.int64("g0") {
                    let bucketed = TapBucketing.bucket(index: index, size: bucket, timeZone: query.timeZone)
                    out.bucketStart = bucketed.start
                    out.bucket = bucketed.label
                }
                return out
            })
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

    /// The query's range with open ends closed by the first and last stored taps.
    static func range(_ query: TapReportQuery, _ db: Database) throws -> (from: Date, to: Date) {
        var from = query.from
        var to = query.to
        if from == nil || to == nil {
            let row = try db.queryOne("SELECT MIN(tapped_at) AS first, MAX(tapped_at) AS last FROM taps")
            from = from ?? row?.date("first") ?? Date(timeIntervalSince1970: 0)
            to = to ?? row?.date("last").map { $0.addingTimeInterval(1) } ?? Date(timeIntervalSince1970: 0)
        }
        return (from!, max(from!, to!))
    }

    /// SQL for the tap's local wall-clock time in seconds: `tapped_at` plus the zone's offset, which changes at
    /// the zone's transitions inside the range (a `CASE` over them; a fixed offset for zones without any).
    static func localTimeSQL(_ zone: TimeZone, from: Date, to: Date, arguments: inout [SQLValue]) -> String {
        var transitions: [Date] = []
        var cursor = from
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < to, transitions.count < 1000 {
            transitions.append(next)
            cursor = next
        }
        guard !transitions.isEmpty else {
            arguments.append(.integer(Int64(zone.secondsFromGMT(for: from))))
            return "(tapped_at + ?)"
        }
        var sql = "(tapped_at + CASE"
        var previous = from
        for transition in transitions {
            sql += " WHEN tapped_at < ? THEN ?"
            arguments += [transition.sqlValue, .integer(Int64(zone.secondsFromGMT(for: previous)))]
            previous = transition
        }
        arguments.append(.integer(Int64(zone.secondsFromGMT(for: previous))))
        return sql + " ELSE ? END)"
    }
}
