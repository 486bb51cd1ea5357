import DeepLinks
import Foundation
import HTTPServer
import JSON
import TapCharts
import WidgetHost

/// Widget taps: record them (routed through the deep-link table), count them, and list broken links.
///
/// - `POST /v1/taps` ``V1/TapInput`` or ``V1/TapBatch`` → 201 ``V1/RecordedTapList``: all stored in one transaction,
///   or none; 422 `unknown_instance` (an unknown instance without kind and family) / `tap_widget_unknown`
/// - `GET /v1/taps/report?from=&to=&groupBy=&bucket=&timeZone=&route=&kind=&family=&source=&location=&format=` →
///   ``V1/TapReport``, or RFC 4180 CSV with `format=csv` (or `Accept: text/csv` without `format`); 400
///   `invalid_query`
/// - `GET /v1/taps/series.svg?…` (the report's query) → taps per route over time, `image/svg+xml` (``TapChart``); by
///   day unless `bucket=hour`
/// - `GET /v1/taps/heatmap.svg?…` (the report's query; `groupBy` and `bucket` ignored) → taps by local hour and
///   weekday, `image/svg+xml`
/// - `GET /v1/taps/unmatched?from=&to=&limit=` → ``V1/UnmatchedURLList``; 400 `invalid_query`
enum TapsResource: APIResource {
    /// The most taps one request may record.
    static let maximumBatchSize = 1000
    /// The longest tapped URL, in characters.
    static let maximumURLLength = 4096
    /// The longest kind or family name, in characters.
    static let maximumNameLength = 128
    /// The most URLs `GET /v1/taps/unmatched` lists.
    static let maximumUnmatchedLimit = 1000
    /// What `groupBy` may be: a comma-separated list of tap columns, possibly empty (totals and buckets only).
    static let groupByPattern: String = {
        let names = TapDimension.allCases.map(\.rawValue).joined(separator: "|")
        return "^((\(names))(,(\(names)))*)?$"
    }()
    /// The time zones buckets may be counted in: the IANA identifiers Foundation knows, and `UTC`.
    static let timeZones: [String] = {
        Set(TimeZone.knownTimeZoneIdentifiers + ["UTC"]).filter { TimeZone(identifier: $0) != nil }.sorted()
    }()

    static func register(in router: inout APIRouter, context: APIContext) {
        let taps = context.taps
        let clock = context.engine.clock

        router.post("/v1/taps") { request, _ in
            let now = clock.now
            let batch = try decodeTaps(request).map { input, field in try tap(input, field: field, now: now) }
            let recorded = try mappingEngineErrors { try taps.record(batch: batch) }
            return .json(V1.RecordedTapList(taps: recorded.map(V1.RecordedTap.init)), status: .created)
        }

        router.get("/v1/taps/report") { request, _ in
            let query = try reportQuery(request)
            let format = try APIQuery.choice("format", in: request, among: ["json", "csv"])
            let report = try mappingEngineErrors { try taps.report(query) }
            if format == "csv" || (format == nil && prefersCSV(request)) {
                return HTTPResponse(status: .ok, headers: ["Content-Type": "text/csv; charset=utf-8"],
                                    body: Data(report.csv().utf8))
            }
            return .json(V1.TapReport(report))
        }

        router.get("/v1/taps/series.svg") { request, _ in
            var query = try reportQuery(request)
            if !query.dimensions.contains(.route) { query.dimensions.insert(.route, at: 0) }
            query.bucket = query.bucket ?? .day
            let report = try mappingEngineErrors { try taps.report(query) }
            return svg(TapChart.timeSeries(report))
        }

        router.get("/v1/taps/heatmap.svg") { request, _ in
            var query = try reportQuery(request)
            query.dimensions = []
            query.bucket = .hour
            let report = try mappingEngineErrors { try taps.report(query) }
            return svg(TapChart.heatMap(report))
        }

        router.get("/v1/taps/unmatched") { request, _ in
            let from = try APIQuery.date("from", in: request)
            let to = try APIQuery.date("to", in: request)
            let limit = try APIQuery.integer("limit", in: request, range: 1...maximumUnmatchedLimit) ?? 20
            let urls = try mappingEngineErrors { try taps.unmatchedURLs(from: from, to: to, limit: limit) }
            return .json(V1.UnmatchedURLList(urls))
        }
    }

    /// The taps of a body holding one tap, or a batch (an object with a `taps` member), each with the prefix
    /// its member names take in error messages.
    private static func decodeTaps(_ request: HTTPRequest) throws -> [(V1.TapInput, field: String)] {
        guard case .object(let members)? = try? JSONParser.parse(request.body), members["taps"] != nil else {
            return [(try request.decode(V1.TapInput.self), "")]
        }
        let batch = try request.decode(V1.TapBatch.self)
        guard (1...maximumBatchSize).contains(batch.taps.count) else {
            throw APIError.invalidField("taps", "expected 1 to \(maximumBatchSize) taps")
        }
        return batch.taps.enumerated().map { index, input in (input, "taps[\(index)].") }
    }

    /// A tap for the engine, with the checks the OpenAPI schema states; `field` prefixes member names in errors.
    private static func tap(_ input: V1.TapInput, field: String, now: Date) throws -> Tap {
        try APIFields.text(input.url, field: field + "url", length: 1...maximumURLLength)
        if let instance = input.instance { try APIFields.identifier(instance, field: field + "instance") }
        if let kind = input.kind { try APIFields.text(kind, field: field + "kind", length: 1...maximumNameLength) }
        if let family = input.family {
            try APIFields.text(family, field: field + "family", length: 1...maximumNameLength)
        }
        guard let source = TapSource(rawValue: input.source) else {
            throw APIError.invalidField(field + "source", "expected one of \(TapSource.allCases.map(\.rawValue))")
        }
        var location = TapLocation.homeScreen
        if let text = input.location {
            guard let parsed = TapLocation(rawValue: text) else {
                throw APIError.invalidField(field + "location",
                                            "expected one of \(TapLocation.allCases.map(\.rawValue))")
            }
            location = parsed
        }
        return Tap(url: input.url, instanceID: input.instance, kind: input.kind, family: input.family, source: source,
                   location: location, date: input.at ?? now)
    }
}
