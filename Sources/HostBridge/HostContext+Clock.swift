import Foundation

extension HostContext {
    /// The device's now: the bound host's clock (a virtual clock in tests and in `serve --clock virtual`), or
    /// `Date()` when nothing is bound.
    ///
    /// iOS code reads `Date()`, which here is the machine's clock, not the engine's: a provider scheduling "next
    /// midnight" from `Date()` would ignore a test that moved the device to tomorrow. Code that must also compile for
    /// iOS reads this through a one-file shim added to both targets (`Docs/testing-intents.md`, "The device's clock"):
    ///
    /// ```swift
    /// #if canImport(HostBridge)
    /// import HostBridge
    /// #endif
    ///
    /// enum DeviceClock {
    ///     static var now: Date {
    ///         #if canImport(HostBridge)
    ///         HostContext.now
    ///         #else
    ///         Date()
    ///         #endif
    ///     }
    /// }
    /// ```
    ///
    /// Inside one provider call or one perform the value is fixed: the engine's time when the call began.
    public static var now: Date { current?.now ?? Date() }

    /// A calendar for the device: the bound host's time zone (`--time-zone`, the harness's `timeZone:`), or
    /// `Calendar.current` when nothing is bound or the host sets none.
    ///
    /// The bound case is Gregorian, as the engine's own date arithmetic is.
    public static var calendar: Calendar {
        guard let zone = current?.timeZone else { return Calendar.current }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }
}
