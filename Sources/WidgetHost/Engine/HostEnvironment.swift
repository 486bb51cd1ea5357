import Foundation
import SharedState

/// What code running inside the engine (providers, entity queries, intents) can ask of the device it runs on:
/// the engine's clock, its time zone, and the App Group containers it knows.
///
/// iOS code reads `Date()` and `Calendar.current`; those see the real machine, not a virtual clock. Provider code
/// that should follow a virtual clock (so a test can move the device to tomorrow) reads
/// `HostEnvironment.current?.now` instead; the demo widgets do.
public struct HostEnvironment: Sendable {
    /// The engine's current time when the call began.
    public var now: Date
    /// The device's time zone.
    public var timeZone: TimeZone
    /// Looked up in order: an engine knows a handful, and every provider run and perform makes an environment, so
    /// none builds a dictionary.
    private let containers: [AppGroupContainer]

    /// Creates an environment.
    public init(now: Date, timeZone: TimeZone, containers: [AppGroupContainer]) {
        self.now = now
        self.timeZone = timeZone
        self.containers = containers
    }

    /// A Gregorian calendar in the device's time zone.
    public var calendar: Calendar { .device(in: timeZone) }

    /// The App Group container with this identifier, if the engine has it (the first given, if several).
    public func container(forGroup identifier: String) -> AppGroupContainer? {
        containers.first { $0.identifier == identifier }
    }

    /// The environment of the engine running the current task, if any.
    @TaskLocal public static var current: HostEnvironment?
}
