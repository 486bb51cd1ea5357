import DeepLinks
import JSON
import WidgetHost

/// The tap endpoints and bodies of the document.
extension OpenAPIDocument {
    /// The `from` and `to` query parameters of tap reports.
    static let tapRangeParameters = [
        queryParameter("from", string(format: "date-time", pattern: dateTimePattern),
                       "The first instant counted (inclusive); from the first tap when absent."),
        queryParameter("to", string(format: "date-time", pattern: dateTimePattern),
                       "The end (exclusive); through the last tap when absent."),
    ]

    /// A route, kind or family to filter by: 1 to 128 characters, no NUL (JSON Schema counts Unicode scalars, as the
    /// server does).
    static let filterName: JSONValue = [
        "type": "string", "minLength": 1, "maxLength": .int(TapsResource.maximumNameLength), "pattern": "^[^\\u0000]*$",
    ]

    /// The query parameters reports and charts share: range, grouping, bucket, time zone, column filters.
    static let tapReportParameters = tapRangeParameters + [
        queryParameter("groupBy", string(pattern: TapsResource.groupByPattern),
                       "Comma-separated columns: route, kind, family, source, location (default route; "
                           + "empty for totals only)."),
        queryParameter("bucket", string(values: TapTimeBucket.allCases.map(\.rawValue)),
                       "Count by local hour or day as well."),
        queryParameter("timeZone", string(values: TapsResource.timeZones), "The time zone of buckets (default UTC)."),
    ] + TapDimension.allCases.map { dimension in
        queryParameter(dimension.rawValue,
                       TapsResource.filterValues(dimension).map { string(values: $0) } ?? filterName,
                       "Only taps whose \(dimension.rawValue) is this"
                           + (dimension == .route ? " (`\(TapReport.unmatchedRoute)`: the taps no route matched)." : "."))
    }

    static let tapPaths: [String: JSONValue] = [
        "/v1/taps": ["post": operation(
            "recordTaps", """
                Record one tap, or a batch (`{"taps": [...]}`, 1 to \(TapsResource.maximumBatchSize)) stored in one \
                transaction (all or none). Each tap is routed through the deep-link table; a Link tap on a family \
                that cannot show a Link is kept and flagged. Name the widget by `instance`, or by `kind` and \
                `family` (taps relayed from devices).
                """,
            body: "TapRequest",
            success: ("201", json("RecordedTapList", "What was stored for each tap, in order.")), errors: [422, 503])],
        "/v1/taps/series.svg": ["get": operation(
            "chartTapSeries", "An SVG of taps per route over time (by day unless `bucket=hour`), for the report's query.",
            parameters: tapReportParameters,
            success: ("200", ["description": "The chart.", "content": ["image/svg+xml": ["schema": string()]]]),
            errors: [400, 422, 503])],
        "/v1/taps/heatmap.svg": ["get": operation(
            "chartTapHeatMap", "An SVG heat map of taps by local hour and weekday (`groupBy` and `bucket` are ignored).",
            parameters: tapReportParameters,
            success: ("200", ["description": "The chart.", "content": ["image/svg+xml": ["schema": string()]]]),
            errors: [400, 422, 503])],
        "/v1/taps/report": ["get": operation(
            "reportTaps", "Count taps in [from, to) by the `groupBy` columns and an optional local time bucket, "
                + "keeping only the taps the column filters name.",
            parameters: tapReportParameters + [
                queryParameter("format", string(values: ["json", "csv"]),
                               "json (default; or CSV when Accept names text/csv only) or csv (RFC 4180)."),
            ],
            success: ("200", [
                "description": "The counts.",
                "content": [
                    "application/json": ["schema": ref("TapReport")],
                    "text/csv": ["schema": string()],
                ],
            ]),
            errors: [400, 422, 503])],
        "/v1/taps/unmatched": ["get": operation(
            "listUnmatchedTaps", "The most tapped URLs that matched no route, each with the route it probably meant.",
            parameters: tapRangeParameters + [
                queryParameter("limit", integer(in: 1...TapsResource.maximumUnmatchedLimit),
                               "At most this many URLs (default 20)."),
            ],
            success: ("200", json("UnmatchedURLList", "The broken links, most tapped first.")), errors: [400, 422, 503])],
    ]

    static let tapSchemas: [String: JSONValue] = [
        "TapRequest": ["oneOf": [ref("TapInput"), ref("TapBatch")]],
        "TapBatch": object([
            "taps": ["type": "array", "items": ref("TapInput"), "minItems": 1,
                     "maxItems": .int(TapsResource.maximumBatchSize)],
        ], required: ["taps"], closed: true),
        "TapInput": object([
            "url": text(length: 1...TapsResource.maximumURLLength),
            "instance": nullable(string(pattern: InstancesResource.idPattern)),
            "kind": nullable(text(length: 1...TapsResource.maximumNameLength)),
            "family": nullable(text(length: 1...TapsResource.maximumNameLength)),
            "source": string(values: TapSource.allCases.map(\.rawValue)),
            "location": nullable(string(values: TapLocation.allCases.map(\.rawValue))),
            "at": nullable(string(format: "date-time", pattern: dateTimePattern)),
        ], required: ["url", "source"], closed: true),
        "RecordedTapList": object(["taps": array(of: ref("RecordedTap"))], required: ["taps"]),
        "RecordedTap": object([
            "id": integer, "matched": boolean, "route": string(), "kind": string(), "family": string(),
            "diagnostic": string(values: TapDiagnostic.allCases.map(\.rawValue)),
        ], required: ["id", "matched", "kind", "family"]),
        "TapReport": object([
            "from": dateTime, "to": dateTime,
            "groupBy": array(of: string(values: TapDimension.allCases.map(\.rawValue))),
            "bucket": string(values: TapTimeBucket.allCases.map(\.rawValue)), "timeZone": string(),
            "rows": array(of: ref("TapReportRow")), "totalTaps": integer, "totalSuspicious": integer,
        ], required: ["groupBy", "timeZone", "rows", "totalTaps", "totalSuspicious"]),
        "TapReportRow": object([
            "route": string(), "kind": string(), "family": string(), "source": string(), "location": string(),
            "bucketStart": dateTime, "bucket": string(), "taps": integer, "suspicious": integer,
        ], required: ["taps", "suspicious"]),
        "UnmatchedURLList": object(["urls": array(of: ref("UnmatchedURL"))], required: ["urls"]),
        "UnmatchedURL": object([
            "url": string(), "taps": integer, "lastTapped": dateTime, "nearestRoute": ref("NearestRoute"),
        ], required: ["url", "taps", "lastTapped"]),
        "NearestRoute": object([
            "route": string(), "pattern": string(),
            "reason": string(values: ["constraints-excluded", "query-rejected", "shared-prefix"]),
            "queryRule": string(), "sharedCharacters": integer, "explanation": string(),
        ], required: ["route", "pattern", "reason", "explanation"]),
    ]
}
