import Foundation

/// The engine (or a test double) that serves the model layer's global entry points for one task.
///
/// iOS widget code reaches shared state and WidgetKit through globals such as
/// `UserDefaults(suiteName: "group.…")` and `WidgetCenter.shared`. WidgetHost routes those globals to
/// the engine currently running the code through a task-local binding (``HostContext/current``), so
/// the model modules stay free of I/O and several engines can run side by side in one process.
///
/// This protocol carries the App Group storage capability. Other model modules add capabilities by
/// refining it (`WidgetCenterHost` in WidgetKit, `IntentDonationHost` in AppIntents); the model layer
/// finds them with a dynamic cast of the bound value, so one object bound once serves them all.
public protocol HostBinding: Sendable {
    /// Returns the key-value storage of an App Group suite this host manages.
    ///
    /// - Parameter suiteName: The suite name passed to `UserDefaults(suiteName:)`, for example
    ///   `"group.com.example.tasks"`.
    /// - Returns: The suite's storage, or `nil` when this host does not manage that group; the caller
    ///   then falls back to Foundation's `UserDefaults`.
    func defaults(suiteName: String) -> (any DefaultsStorage)?

    /// The directory of an App Group container this host manages, as
    /// `FileManager.default.containerURL(forSecurityApplicationGroupIdentifier:)` answers it.
    ///
    /// - Parameter groupIdentifier: The App Group identifier, for example `"group.com.example.tasks"`.
    /// - Returns: The container's directory (created if needed), or `nil` when this host does not manage that group
    ///   or keeps it in memory.
    func containerURL(forGroup groupIdentifier: String) -> URL?

    /// The device's time as this host's clock tells it, when the host runs on its own clock; `nil` for the
    /// machine's clock. Read through ``HostContext/now``.
    var now: Date? { get }

    /// The device's time zone, when the host sets one; `nil` for the machine's. Read through
    /// ``HostContext/calendar``.
    var timeZone: TimeZone? { get }
}

extension HostBinding {
    /// Manages no App Group: every suite falls back to Foundation's `UserDefaults`.
    public func defaults(suiteName: String) -> (any DefaultsStorage)? { nil }

    /// Manages no App Group directory.
    public func containerURL(forGroup groupIdentifier: String) -> URL? { nil }

    /// The machine's clock.
    public var now: Date? { nil }

    /// The machine's time zone.
    public var timeZone: TimeZone? { nil }
}
