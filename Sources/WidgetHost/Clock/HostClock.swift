import Foundation

/// The source of "now" for an engine.
///
/// WidgetKit on a device reads the wall clock. WidgetHost injects the clock instead, so a test (or a daemon
/// started with `--clock virtual`) can move the device to tomorrow and watch the widget switch, and so that the
/// same schedule gives the same result on every run.
public protocol HostClock: Sendable {
    /// The current instant on this clock.
    var now: Date { get }
}

/// The wall clock: `Date()`.
public struct SystemClock: HostClock {
    /// Creates the wall clock.
    public init() {}

    /// The current wall-clock time.
    public var now: Date { Date() }
}
