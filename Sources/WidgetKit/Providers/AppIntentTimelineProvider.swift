/// Supplies the entries of a widget configured by a ``WidgetConfigurationIntent``.
///
/// Each distinct configuration (intent parameter values) gets its own timeline.
///
/// Mirrors [AppIntentTimelineProvider](https://developer.apple.com/documentation/widgetkit/appintenttimelineprovider).
public protocol AppIntentTimelineProvider {
    /// The provider's entry type.
    associatedtype Entry: TimelineEntry
    /// The configuration intent.
    associatedtype Intent: WidgetConfigurationIntent

    /// The context passed to every call.
    typealias Context = TimelineProviderContext

    /// Returns an entry with sample content, at once.
    func placeholder(in context: Context) -> Entry

    /// Returns one entry for the widget gallery.
    func snapshot(for configuration: Intent, in context: Context) async -> Entry

    /// Returns the timeline for one configuration.
    func timeline(for configuration: Intent, in context: Context) async -> Timeline<Entry>

    /// Preconfigured widgets to offer where there is no configuration UI (watchOS); none by default.
    func recommendations() -> [AppIntentRecommendation<Intent>]
}

extension AppIntentTimelineProvider {
    /// No recommendations.
    public func recommendations() -> [AppIntentRecommendation<Intent>] { [] }
}
