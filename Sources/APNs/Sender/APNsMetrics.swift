import Foundation
import Synchronization

/// The sender's counters, as `/metrics` shows them (`widgethost_apns_*`): pushes delivered, failed by reason,
/// retries, and the latency of each answered request (a histogram).
public final class APNsMetrics: Sendable {
    /// A snapshot.
    public struct Counts: Sendable, Hashable {
        /// Requests answered 200.
        public var delivered = 0
        /// Pushes failed for good, by reason.
        public var failedByReason: [String: Int] = [:]
        /// Attempts that will be followed by another (429, 5xx, no answer, an expired provider token).
        public var retries = 0
        /// Requests sent.
        public var requests = 0
        /// Provider tokens signed because APNs refused one as expired.
        public var providerTokenRenewals = 0
        /// Latency bucket counts, one per ``APNsMetrics/latencyBuckets`` bound and a last one for +Inf.
        public var latencyBuckets: [Int] = Array(repeating: 0, count: APNsMetrics.latencyBuckets.count + 1)
        /// The sum of the latencies, in seconds.
        public var latencySum = 0.0
        /// Answered requests (the histogram's count).
        public var latencyCount = 0
    }

    /// The histogram's upper bounds, in seconds.
    public static let latencyBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private let counts = Mutex(Counts())

    /// Creates zeroed counters.
    public init() {}

    /// A snapshot of the counters.
    public var snapshot: Counts { counts.withLock { $0 } }

    func recordSent(_ count: Int) {
        counts.withLock { $0.requests += count }
    }

    func recordProviderTokenRenewal() {
        counts.withLock { $0.providerTokenRenewals += 1 }
    }

    func record(_ outcome: APNsMetrics.Outcome, latency: Duration?) {
        counts.withLock { counts in
            switch outcome {
            case .delivered: counts.delivered += 1
            case .failed(let reason): counts.failedByReason[reason, default: 0] += 1
            case .retry: counts.retries += 1
            }
            if let latency {
                let seconds = latency.seconds
                let index = Self.latencyBuckets.firstIndex { seconds <= $0 } ?? Self.latencyBuckets.count
                counts.latencyBuckets[index] += 1
                counts.latencySum += seconds
                counts.latencyCount += 1
            }
        }
    }

    enum Outcome {
        case delivered
        case failed(reason: String)
        case retry
    }

    /// The Prometheus text exposition of the counters, with the outbox's pending pushes as the queue depth.
    public func prometheusText(queueDepth: Int) -> String {
        let counts = snapshot
        var lines = [
            "# HELP widgethost_apns_sent_total Pushes APNs accepted (200).",
            "# TYPE widgethost_apns_sent_total counter",
            "widgethost_apns_sent_total \(counts.delivered)",
            "# HELP widgethost_apns_requests_total Requests sent to APNs, retries included.",
            "# TYPE widgethost_apns_requests_total counter",
            "widgethost_apns_requests_total \(counts.requests)",
            "# HELP widgethost_apns_failed_total Pushes failed for good, by APNs reason.",
            "# TYPE widgethost_apns_failed_total counter",
        ]
        for (reason, count) in counts.failedByReason.sorted(by: { $0.key < $1.key }) {
            lines.append("widgethost_apns_failed_total{reason=\"\(Self.label(reason))\"} \(count)")
        }
        lines += [
            "# HELP widgethost_apns_retries_total Attempts followed by another (429, 5xx, no answer, expired provider token).",
            "# TYPE widgethost_apns_retries_total counter",
            "widgethost_apns_retries_total \(counts.retries)",
            "# HELP widgethost_apns_provider_token_renewals_total Provider tokens signed after ExpiredProviderToken.",
            "# TYPE widgethost_apns_provider_token_renewals_total counter",
            "widgethost_apns_provider_token_renewals_total \(counts.providerTokenRenewals)",
            "# HELP widgethost_apns_queue_depth Pushes pending in the outbox.",
            "# TYPE widgethost_apns_queue_depth gauge",
            "widgethost_apns_queue_depth \(queueDepth)",
            "# HELP widgethost_apns_latency_seconds From handing a request to the HTTP/2 client to its answer.",
            "# TYPE widgethost_apns_latency_seconds histogram",
        ]
        var cumulative = 0
        for (index, bound) in Self.latencyBuckets.enumerated() {
            cumulative += counts.latencyBuckets[index]
            lines.append("widgethost_apns_latency_seconds_bucket{le=\"\(bound)\"} \(cumulative)")
        }
        cumulative += counts.latencyBuckets[Self.latencyBuckets.count]
        lines.append("widgethost_apns_latency_seconds_bucket{le=\"+Inf\"} \(cumulative)")
        lines.append("widgethost_apns_latency_seconds_sum \(counts.latencySum)")
        lines.append("widgethost_apns_latency_seconds_count \(counts.latencyCount)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A label value with `\`, `"` and newlines escaped, as the exposition format wants.
    private static func label(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
