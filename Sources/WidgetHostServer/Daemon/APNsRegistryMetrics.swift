import APNs
import HTTPServer
import Synchronization

/// The APNs sender's counts at `/metrics`. This is the one place `widgethost_apns_*` names are registered.
///
/// | name | type | labels | counts |
/// |---|---|---|---|
/// | `widgethost_apns_sent_total` | counter | none | pushes APNs accepted (200) |
/// | `widgethost_apns_requests_total` | counter | none | requests sent, retries included |
/// | `widgethost_apns_failed_total` | counter | `reason` (APNs's, `NoAnswer`, `TokenInvalidated`, `UnsupportedChannelPush`) | pushes failed for good |
/// | `widgethost_apns_retries_total` | counter | none | attempts followed by another (429, 5xx, no answer, expired provider token) |
/// | `widgethost_apns_provider_token_renewals_total` | counter | none | provider tokens signed after `ExpiredProviderToken` |
/// | `widgethost_apns_queue_depth` | gauge | none | pending pushes in the outbox (looked at about once a second) |
/// | `widgethost_apns_latency_seconds` | histogram | none | from handing a request to the HTTP/2 client to its answer |
public final class APNsRegistryMetrics: APNsMetricsSink {
    private let registry: MetricsRegistry
    private let sent: Counter
    private let requests: Counter
    private let retries: Counter
    private let renewals: Counter
    private let depth: Gauge
    private let latency: Histogram
    private static let failedHelp = "Pushes failed for good, by reason."

    /// Registers the series in `registry` (zeros until the sender counts).
    public init(registry: MetricsRegistry) {
        self.registry = registry
        sent = registry.counter("widgethost_apns_sent_total", help: "Pushes APNs accepted (200).")
        requests = registry.counter("widgethost_apns_requests_total", help: "Requests sent to APNs, retries included.")
        retries = registry.counter("widgethost_apns_retries_total",
                                   help: "Attempts followed by another (429, 5xx, no answer, expired provider token).")
        renewals = registry.counter("widgethost_apns_provider_token_renewals_total",
                                    help: "Provider tokens signed because APNs refused one as expired.")
        depth = registry.gauge("widgethost_apns_queue_depth", help: "Pending pushes in the outbox.")
        latency = registry.histogram("widgethost_apns_latency_seconds",
                                     help: "From handing a request to the HTTP/2 client to its answer.",
                                     buckets: APNsMetrics.latencyBuckets)
    }

    public func requestsSent(_ count: Int) { requests.increment(by: Double(count)) }

    public func delivered(latency: Duration) {
        sent.increment()
        self.latency.observe(Self.seconds(latency))
    }

    public func failed(reason: String, latency: Duration?) {
        registry.counter("widgethost_apns_failed_total", help: Self.failedHelp, labels: ["reason": reason]).increment()
        if let latency { self.latency.observe(Self.seconds(latency)) }
    }

    public func retried(latency: Duration?) {
        retries.increment()
        if let latency { self.latency.observe(Self.seconds(latency)) }
    }

    public func providerTokenRenewed() { renewals.increment() }

    public func queueDepth(_ count: Int) { depth.set(Double(count)) }

    private static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
