import DeepLinks
import Foundation
import WidgetHost

extension V1 {
    /// `POST /v1/taps`: one tap or a batch of them (1 to ``TapsResource/maximumBatchSize``), stored together or
    /// not at all.
    struct TapBatch: Decodable {
        var taps: [TapInput]
    }

    /// One widget tap: the URL the app received, the widget (an instance id, or a kind and family), how, where and
    /// when.
    struct TapInput: Decodable {
        var url: String
        var instance: String?
        var kind: String?
        var family: String?
        /// `widgetURL` or `link`.
        var source: String
        /// `homeScreen` (default), `lockScreen` or `standBy`.
        var location: String?
        /// When it happened; the engine's now when absent.
        var at: Date?
    }

    /// `POST /v1/taps`'s answer: what was stored for each tap, in order.
    struct RecordedTapList: Encodable {
        var taps: [RecordedTap]
    }

    /// A stored tap: its id, the route it matched (absent for a broken link), its widget, and why it is
    /// suspicious, if it is.
    struct RecordedTap: Encodable {
        var id: Int64
        var matched: Bool
        var route: String?
        var kind: String
        var family: String
        /// `link-on-family-without-links` or `unknown-family`.
        var diagnostic: String?

        init(_ tap: WidgetHost.RecordedTap) {
            id = tap.id
            matched = tap.route != nil
            route = tap.route
            kind = tap.kind
            family = tap.family
            diagnostic = tap.diagnostic?.rawValue
        }
    }

    /// `GET /v1/taps/report`: taps counted by the requested columns and time bucket.
    package struct TapReport: Encodable {
        var from: Date?
        var to: Date?
        var groupBy: [String]
        var bucket: String?
        var timeZone: String
        var rows: [TapReportRow]
        var totalTaps: Int
        var totalSuspicious: Int

        package init(_ report: WidgetHost.TapReport) {
            from = report.query.from
            to = report.query.to
            groupBy = report.query.dimensions.map(\.rawValue)
            bucket = report.query.bucket?.rawValue
            timeZone = report.query.timeZone.identifier
            rows = report.rows.map(TapReportRow.init)
            totalTaps = report.totalTaps
            totalSuspicious = report.totalSuspicious
        }
    }

    /// One group of a tap report: the grouped columns (only those), the bucket, and the counts.
    struct TapReportRow: Encodable {
        /// `(unmatched)` for broken links.
        var route: String?
        var kind: String?
        var family: String?
        var source: String?
        var location: String?
        var bucketStart: Date?
        /// The bucket as local time: `2026-11-25` or `2026-11-25T10:00`.
        var bucket: String?
        var taps: Int
        var suspicious: Int

        init(_ row: WidgetHost.TapReport.Row) {
            route = row.route
            kind = row.kind
            family = row.family
            source = row.source
            location = row.location
            bucketStart = row.bucketStart
            bucket = row.bucket
            taps = row.taps
            suspicious = row.suspicious
        }
    }

    /// `GET /v1/taps/unmatched`: the most tapped URLs that matched no route.
    package struct UnmatchedURLList: Encodable {
        var urls: [UnmatchedURL]

        package init(_ urls: [WidgetHost.UnmatchedURL]) {
            self.urls = urls.map(UnmatchedURL.init)
        }
    }

    /// A broken deep link: how often and when it was last tapped, and the route it probably meant.
    struct UnmatchedURL: Encodable {
        var url: String
        var taps: Int
        var lastTapped: Date
        /// Absent when the URL has no canonical form.
        var nearestRoute: NearestRoute?

        init(_ unmatched: WidgetHost.UnmatchedURL) {
            url = unmatched.url
            taps = unmatched.taps
            lastTapped = unmatched.lastTapped
            nearestRoute = unmatched.nearest.map(NearestRoute.init)
        }
    }

    /// The route a broken link most likely meant, and how far it got.
    struct NearestRoute: Encodable {
        var route: String
        var pattern: String
        /// `constraints-excluded`, `query-rejected` or `shared-prefix`.
        var reason: String
        /// For `query-rejected`: the query rule that refused the URL.
        var queryRule: String?
        /// For `shared-prefix`: how many leading characters the pattern's literal prefix shares with the URL.
        var sharedCharacters: Int?
        /// The reason as a sentence.
        var explanation: String

        init(_ nearest: WidgetHost.NearestRoute) {
            route = nearest.routeName
            pattern = nearest.pattern
            explanation = nearest.explanation
            switch nearest.reason {
            case .constraintsExcluded:
                reason = "constraints-excluded"
            case .queryRejected(let rule):
                reason = "query-rejected"
                queryRule = rule
            case .sharedPrefix(let count):
                reason = "shared-prefix"
                sharedCharacters = count
            }
        }
    }
}
