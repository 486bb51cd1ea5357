import Synchronization
/// A Prometheus gauge: a value that goes up and down (open connections, timelines stored).
public final class Gauge: Sendable {
    private let state = Mutex(0.0)

    init() {}

    /// Sets the value.
    public func set(_ value: Double) {
        state.withLock { $0 = value }
    }

    /// Adds `amount` (default 1).
    public func increment(by amount: Double = 1) {
        state.withLock { $0 += amount }
    }

    /// Subtracts `amount` (default 1).
    public func decrement(by amount: Double = 1) {
        state.withLock { $0 -= amount }
    }

    /// The current value.
    public var value: Double { state.withLock { $0 } }
}
