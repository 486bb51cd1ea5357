import Foundation

/// A column taps can be counted by.
public enum TapDimension: String, Sendable, Hashable, Codable, CaseIterable {
    case route, kind, family, source, location
}

/// A time bucket taps can be counted by.
public enum TapTimeBucket: String, Sendable, Hashable, Codable, CaseIterable {
    case hour, day

    var seconds: Int64 { self == .hour ? 3600 : 86400 }
}

/// What to count: a time range, the columns to group by, an optional time bucket, and the columns' values to keep.
///
/// Buckets are local hours or days of `timeZone` (UTC by default): a day bucket runs from local midnight to the
/// next local midnight, so around a daylight-saving change it lasts 23 or 25 hours; the hour that repeats when
/// clocks go back is one bucket holding both hours' taps.
public struct TapReportQuery: Sendable, Hashable, Codable {
    /// The first instant counted (inclusive); nil: from the first tap.
    public var from: Date?
    /// The end (exclusive); nil: through the last tap.
    public var to: Date?
    /// The columns to group by, in output order.
    public var dimensions: [TapDimension]
    /// The time bucket, if any.
    public var bucket: TapTimeBucket?
    /// The time zone of buckets.
    public var timeZone: TimeZone
    /// Only taps whose column has this value are counted (`route` ``TapReport/unmatchedRoute`` keeps the taps that
    /// matched no route); empty: every tap. A filtered column need not be grouped by.
    public var filters: [TapDimension: String]

    /// Creates a query.
    public init(from: Date? = nil, to: Date? = nil, dimensions: [TapDimension] = [.route],
                bucket: TapTimeBucket? = nil, timeZone: TimeZone = TimeZone(identifier: "UTC")!,
                filters: [TapDimension: String] = [:]) {
        self.from = from
        self.to = to
        self.dimensions = dimensions
        self.bucket = bucket
        self.timeZone = timeZone
        self.filters = filters
    }

    /// Whether an end is open, so that the first and last stored taps are needed to close it.
    var hasOpenEnd: Bool { from == nil || to == nil }

    /// The range with open ends closed by the first and last stored taps (the end just after the last one); a log
    /// without taps closes them at 1970. Every tap log closes ranges this way.
    func closedRange(firstTap: Date?, lastTap: Date?) -> (from: Date, to: Date) {
        let epoch = Date(timeIntervalSince1970: 0)
        let start = from ?? firstTap ?? epoch
        let end = to ?? lastTap.map { $0.addingTimeInterval(1) } ?? epoch
        return (start, max(start, end))
    }
}

/// Counted taps: one row per distinct combination of the query's columns (and bucket).
public struct TapReport: Sendable, Hashable, Codable {
    /// The route value of taps that matched no route.
    public static let unmatchedRoute = "(unmatched)"

    /// One group.
    public struct Row: Sendable, Hashable, Codable {
        /// The route (``TapReport/unmatchedRoute`` for broken links), when grouped by route.
        public var route: String?
        /// The kind, when grouped by kind.
        public var kind: String?
        /// The family, when grouped by family.
        public var family: String?
        /// The source, when grouped by source.
        public var source: String?
        /// The location, when grouped by location.
        public var location: String?
        /// The bucket's first instant, when bucketed.
        public var bucketStart: Date?
        /// The bucket as local time (`2026-11-25` or `2026-11-25T10:00`), when bucketed.
        public var bucket: String?
        /// Taps in the group.
        public var taps: Int
        /// Suspicious taps among them.
        public var suspicious: Int

        /// Creates a row; columns not grouped by stay nil.
        public init(route: String? = nil, kind: String? = nil, family: String? = nil, source: String? = nil,
                    location: String? = nil, bucketStart: Date? = nil, bucket: String? = nil, taps: Int,
                    suspicious: Int = 0) {
            self.route = route
            self.kind = kind
            self.family = family
            self.source = source
            self.location = location
            self.bucketStart = bucketStart
            self.bucket = bucket
            self.taps = taps
            self.suspicious = suspicious
        }

        /// The value of one grouped column.
        public func value(_ dimension: TapDimension) -> String? {
            switch dimension {
            case .route: route
            case .kind: kind
            case .family: family
            case .source: source
            case .location: location
            }
        }
    }

    /// The query answered.
    public var query: TapReportQuery
    /// The groups, by bucket then by the grouped columns.
    public var rows: [Row]

    /// Creates a report (``TapStore/report(_:)`` makes them from the tap log).
    public init(query: TapReportQuery, rows: [Row]) {
        self.query = query
        self.rows = rows
    }

    /// All taps counted.
    public var totalTaps: Int { rows.reduce(0) { $0 + $1.taps } }
    /// All suspicious taps counted.
    public var totalSuspicious: Int { rows.reduce(0) { $0 + $1.suspicious } }
}
