import Foundation
import Synchronization

/// A clock that only moves when it is told to.
///
/// Tests and the daemon's `--clock virtual` mode set and advance it. It never moves backwards through
/// ``advance(by:)``; ``set(to:)`` may move it anywhere (a device whose user changed the date), and the engine
/// treats a backwards move as "nothing is due" rather than replaying history.
public final class VirtualClock: HostClock {
    private let current: Mutex<Date>

    /// Creates a virtual clock that starts at `start`.
    /// - Parameter start: The initial instant.
    public init(start: Date) {
        current = Mutex(start)
    }

    /// The instant the clock was last set or advanced to.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock to `date`, forwards or backwards.
    /// - Parameter date: The new current instant.
    public func set(to date: Date) {
        current.withLock { $0 = date }
    }

    /// Moves the clock forwards by `interval` seconds.
    /// - Parameter interval: A non-negative number of seconds.
    /// - Returns: The new current instant.
    @discardableResult
    public func advance(by interval: TimeInterval) -> Date {
        precondition(interval >= 0 && interval.isFinite, "VirtualClock.advance(by:) needs a finite, non-negative interval")
        return current.withLock { now in
            now = now.addingTimeInterval(interval)
            return now
        }
    }
}
