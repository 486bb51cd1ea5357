/// An intent whose parameters configure a control: each placed control carries its own values.
///
/// Mirrors [ControlConfigurationIntent](https://developer.apple.com/documentation/appintents/controlconfigurationintent).
public protocol ControlConfigurationIntent: AppIntent {}

extension ControlConfigurationIntent {
    /// Does nothing: configuration intents are read, not run (as for ``WidgetConfigurationIntent``).
    public func perform() async throws -> IntentResultContainer<Never, Never, Never, Never> {
        .result()
    }
}
