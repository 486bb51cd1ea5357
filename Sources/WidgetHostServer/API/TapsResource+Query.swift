import DeepLinks
import Foundation
import HTTPServer
import WidgetHost

/// The query parameters tap reports and charts share.
extension TapsResource {
    /// The report query of `from`, `to`, `groupBy`, `bucket`, `timeZone` and the column filters `route`, `kind`,
    /// `family`, `source`, `location`.
    /// - Throws: 400 `invalid_query`, 422 `invalid_date`.
    static func reportQuery(_ request: HTTPRequest) throws -> TapReportQuery {
        var query = TapReportQuery(from: try APIQuery.date("from", in: request),
                                   to: try APIQuery.date("to", in: request), dimensions: try dimensions(request))
        query.bucket = try APIQuery.choice("bucket", in: request, among: TapTimeBucket.allCases.map(\.rawValue))
            .flatMap(TapTimeBucket.init(rawValue:))
        if let zone = try APIQuery.choice("timeZone", in: request, among: timeZones) {
            query.timeZone = TimeZone(identifier: zone) ?? query.timeZone
        }
        query.filters = try filters(request)
        return query
    }

    /// The values the filter parameters may take: any name for route, kind and family; the known ones for source and
    /// location.
    static func filterValues(_ dimension: TapDimension) -> [String]? {
        switch dimension {
        case .route, .kind, .family: nil
        case .source: TapSource.allCases.map(\.rawValue)
        case .location: TapLocation.allCases.map(\.rawValue)
        }
    }

    /// One filter per column parameter present.
    private static func filters(_ request: HTTPRequest) throws -> [TapDimension: String] {
        var filters: [TapDimension: String] = [:]
        for dimension in TapDimension.allCases {
            let name = dimension.rawValue
            if let values = filterValues(dimension) {
                filters[dimension] = try APIQuery.choice(name, in: request, among: values)
            } else if let value = request.query(name) {
                guard (1...maximumNameLength).contains(value.unicodeScalars.count), !value.unicodeScalars.contains("\0") else {
                    throw APIError.invalidQuery(name, "expected 1 to \(maximumNameLength) characters, no NUL")
                }
                filters[dimension] = value
            }
        }
        return filters
    }

    /// The `groupBy` columns in order, without repeats; `route` when absent.
    static func dimensions(_ request: HTTPRequest) throws -> [TapDimension] {
        guard let text = request.query("groupBy") else { return [.route] }
        var dimensions: [TapDimension] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) where !text.isEmpty {
            guard let dimension = TapDimension(rawValue: String(name)) else {
                throw APIError.invalidQuery("groupBy", "expected a comma-separated list of "
                                                + TapDimension.allCases.map(\.rawValue).joined(separator: ", "))
            }
            if !dimensions.contains(dimension) { dimensions.append(dimension) }
        }
        return dimensions
    }

    /// Whether the client asks for CSV and not for JSON.
    static func prefersCSV(_ request: HTTPRequest) -> Bool {
        guard let accept = request.headers["Accept"]?.lowercased() else { return false }
        return accept.contains("text/csv") && !accept.contains("application/json")
    }

    /// An SVG document as a response.
    static func svg(_ document: String) -> HTTPResponse {
        HTTPResponse(status: .ok, headers: ["Content-Type": "image/svg+xml; charset=utf-8"], body: Data(document.utf8))
    }
}
