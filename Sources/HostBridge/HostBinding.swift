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
}

extension HostBinding {
    /// Manages no App Group: every suite falls back to Foundation's `UserDefaults`.
    public func defaults(suiteName: String) -> (any DefaultsStorage)? { nil }
}
