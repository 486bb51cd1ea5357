import Synchronization
/// A Prometheus histogram: observations counted in cumulative buckets, plus their sum and count.
public final class Histogram: Sendable {
    /// Bucket upper bounds for request latencies in seconds: 0.5 ms to 2.5 s.
    public static let defaultLatencyBuckets: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
    ]

    /// A consistent copy of a histogram's state.
    public struct Snapshot: Sendable, Equatable {
        /// The upper bounds, ascending, without `+Inf`.
        public var upperBounds: [Double]
        /// Observations per bucket (not cumulative); one more than `upperBounds`, the last for `+Inf`.
        public var bucketCounts: [UInt64]
        /// The sum of all observations.
        public var sum: Double
        /// The number of observations.
        public var count: UInt64
    }

    private let state: Mutex<Snapshot>

    init(upperBounds: [Double]) {
        let bounds = upperBounds.sorted()
        precondition(Set(bounds).count == bounds.count && bounds.allSatisfy(\.isFinite), "histogram buckets must be distinct and finite")
        state = Mutex(Snapshot(upperBounds: bounds, bucketCounts: Array(repeating: 0, count: bounds.count + 1), sum: 0, count: 0))
    }

    /// Records one observation.
    public func observe(_ value: Double) {
        state.withLock { snapshot in
            let bucket = snapshot.upperBounds.firstIndex { value <= $0 } ?? snapshot.upperBounds.count
            snapshot.bucketCounts[bucket] += 1
            snapshot.sum += value
            snapshot.count += 1
        }
    }

    /// The current state.
    public var snapshot: Snapshot { state.withLock { $0 } }
}
