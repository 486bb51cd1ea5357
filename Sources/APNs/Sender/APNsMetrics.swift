import Foundation
import Synchronization

/// Where a sender's counts go as they happen: the daemon's `/metrics` registry (`widgethost_apns_*`).
public protocol APNsMetricsSink: Sendable {
    /// `count` requests were handed to the HTTP/2 client.
    func requestsSent(_ count: Int)
    /// A push was delivered.
    func delivered(latency: Duration)
    /// A push failed for good; `reason` is APNs's (or `NoAnswer`, `UnsupportedChannelPush`).
    func failed(reason: String, latency: Duration?)
    /// An attempt will be followed by another.
    func retried(latency: Duration?)
    /// A provider token was signed because APNs refused the last one as expired.
    func providerTokenRenewed()
    /// The outbox's pending pushes, looked at about once a second.
    func queueDepth(_ count: Int)
}

/// The sender's counters: pushes delivered, failed by reason, retries, the latency of each answered request (a
/// histogram), and the queue depth; each also goes to the ``APNsMetricsSink`` given, if any.
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
        /// Pending pushes when last looked at.
        public var queueDepth = 0
    }

    /// The histogram's upper bounds, in seconds.
    public static let latencyBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private let counts = Mutex(Counts())
    private let sink: (any APNsMetricsSink)?

    /// Creates zeroed counters.
    /// - Parameter sink: Where each count also goes.
    public init(sink: (any APNsMetricsSink)? = nil) {
        self.sink = sink
    }

    /// A snapshot of the counters.
    public var snapshot: Counts { counts.withLock { $0 } }

    func recordSent(_ count: Int) {
        counts.withLock { $0.requests += count }
        sink?.requestsSent(count)
    }

    func recordProviderTokenRenewal() {
        counts.withLock { $0.providerTokenRenewals += 1 }
        sink?.providerTokenRenewed()
    }

    func recordQueueDepth(_ depth: Int) {
        counts.withLock { $0.queueDepth = depth }
        sink?.queueDepth(depth)
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
        switch outcome {
        case .delivered: sink?.delivered(latency: latency ?? .zero)
        case .failed(let reason): sink?.failed(reason: reason, latency: latency)
        case .retry: sink?.retried(latency: latency)
        }
    }

    enum Outcome {
        case delivered
        case failed(reason: String)
        case retry
    }
}
