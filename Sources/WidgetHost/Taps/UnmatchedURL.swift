import DeepLinks
import Foundation
import SharedState

/// A URL that matched no route (a broken deep link), how often it was tapped, and the route it probably meant.
public struct UnmatchedURL: Sendable, Hashable, Codable {
    /// The URL as tapped.
    public var url: String
    /// Taps in the range.
    public var taps: Int
    /// The last tap in the range.
    public var lastTapped: Date
    /// The nearest route, nil when the URL has no canonical form.
    public var nearest: NearestRoute?
}

extension TapStore {
    /// The most tapped URLs that matched no route in `[from, to)`, most taps first (ties by URL), each with its
    /// nearest route in the current table. Reads only the partial index of unmatched taps.
    /// - Parameters:
    ///   - from: The first instant counted; nil: from the first tap.
    ///   - to: The end (exclusive); nil: through the last tap.
    ///   - limit: At most this many URLs.
    public func unmatchedURLs(from: Date? = nil, to: Date? = nil, limit: Int = 20) throws -> [UnmatchedURL] {
        let table = routes.table
        let rows = try database.read { db in
            let range = try Self.range(TapReportQuery(from: from, to: to), db)
            return try db.query("""
                SELECT url, count(*) AS taps, MAX(tapped_at) AS last FROM taps
                WHERE route IS NULL AND tapped_at >= ? AND tapped_at < ?
                GROUP BY url ORDER BY taps DESC, url LIMIT ?
                """, [range.from.sqlValue, range.to.sqlValue, .integer(Int64(max(0, limit)))])
        }
        return rows.map { row in
            let url = row.string("url") ?? ""
            return UnmatchedURL(url: url, taps: row.int("taps") ?? 0, lastTapped: row.date("last") ?? .distantPast,
                                nearest: NearestRoute.find(for: url, in: table))
        }
    }
}
