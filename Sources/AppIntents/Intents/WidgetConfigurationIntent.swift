/// An intent whose parameters configure a widget: each placed widget carries its own values.
///
/// Its title and description become the widget's name and description unless the widget's
/// configuration sets them; its parameters are shown in the editor in declaration order.
///
/// Mirrors [WidgetConfigurationIntent](https://developer.apple.com/documentation/appintents/widgetconfigurationintent).
public protocol WidgetConfigurationIntent: AppIntent {}

extension WidgetConfigurationIntent {
    /// Does nothing: configuration intents are read, not run.
    public func perform() async throws -> IntentResultContainer<Never, Never, Never, Never> {
        .result()
    }
}
