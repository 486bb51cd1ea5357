/// Supplies the value a control shows (a toggle's state, a button's label value) for a control without
/// configuration.
///
/// Mirrors [ControlValueProvider](https://developer.apple.com/documentation/widgetkit/controlvalueprovider).
public protocol ControlValueProvider<Value>: Sendable {
    /// The value the control shows.
    associatedtype Value: Sendable

    /// A value for previews (the control gallery); must not do I/O.
    var previewValue: Value { get }

    /// Reads the control's current value, for example from the App Group's `UserDefaults`.
    func currentValue() async throws -> Value
}

/// Supplies the value a configurable control shows, from the placed control's configuration intent.
///
/// Mirrors [AppIntentControlValueProvider](https://developer.apple.com/documentation/widgetkit/appintentcontrolvalueprovider).
public protocol AppIntentControlValueProvider<Configuration, Value>: Sendable {
    /// The intent whose parameters configure each placed control.
    associatedtype Configuration: ControlConfigurationIntent
    /// The value the control shows.
    associatedtype Value: Sendable

    /// A value for previews of a control configured with `configuration`; must not do I/O.
    func previewValue(configuration: Configuration) -> Value

    /// Reads the current value of a control configured with `configuration`.
    func currentValue(configuration: Configuration) async throws -> Value
}
