import Synchronization

/// The server's own metrics, registered in the configured ``MetricsRegistry``.
///
/// Requests are labelled by route (`GET /v1/instances/{id}/entry`), never by raw path, so the number of
/// series stays bounded; requests matching no route share the endpoint `unmatched`.
final class HTTPMetrics: Sendable {
    static let requestsName = "widgethost_http_requests_total"
    static let durationName = "widgethost_http_request_duration_seconds"

    private let registry: MetricsRegistry
    /// The series already looked up, so a request costs one small-key look-up, not label sorting.
    private let series = Mutex([SeriesKey: (Counter, Histogram)]())

    private struct SeriesKey: Hashable {
        var endpoint: String
        var status: Int
    }
    private let connectionsOpened: Counter
    private let connectionsOpen: Gauge

    init(registry: MetricsRegistry) {
        self.registry = registry
        connectionsOpened = registry.counter("widgethost_http_connections_total", help: "TCP or Unix-socket connections accepted.")
        connectionsOpen = registry.gauge("widgethost_http_connections_open", help: "Connections currently open.")
    }

    func record(endpoint: String, status: HTTPStatus, seconds: Double) {
        let key = SeriesKey(endpoint: endpoint, status: status.rawValue)
        let (counter, histogram) = series.withLock { cache in
            if let known = cache[key] { return known }
            let made = (
                registry.counter(
                    Self.requestsName, help: "HTTP requests answered, by endpoint and status.",
                    labels: ["endpoint": endpoint, "status": String(status.rawValue)]
                ),
                registry.histogram(
                    Self.durationName, help: "Time from the request's headers to its queued response, by endpoint.",
                    labels: ["endpoint": endpoint]
                )
            )
            cache[key] = made
            return made
        }
        counter.increment()
        histogram.observe(seconds)
    }

    func connectionOpened() {
        connectionsOpened.increment()
        connectionsOpen.increment()
    }

    func connectionClosed() {
        connectionsOpen.decrement()
    }
}
