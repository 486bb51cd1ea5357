import Synchronization
/// A Prometheus counter: a value that only goes up (requests served, reloads performed).
public final class Counter: Sendable {
    private let state = Mutex(0.0)

    init() {}

    /// Adds `amount` (default 1), which must not be negative.
    public func increment(by amount: Double = 1) {
        precondition(amount >= 0, "a counter cannot decrease")
        state.withLock { $0 += amount }
    }

    /// The current value.
    public var value: Double { state.withLock { $0 } }
}
