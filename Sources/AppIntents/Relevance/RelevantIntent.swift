/// A widget configuration the app suggests, and when it is relevant.
///
/// Mirrors [RelevantIntent](https://developer.apple.com/documentation/appintents/relevantintent).
public struct RelevantIntent: Sendable {
    /// The suggested configuration.
    public let intent: any WidgetConfigurationIntent
    /// The widget kind the configuration is for.
    public let widgetKind: String
    /// When it is relevant.
    public let relevance: RelevantContext

    /// Creates a relevant intent.
    /// - Parameters:
    ///   - intent: The widget configuration to suggest.
    ///   - widgetKind: The kind of the widget it configures.
    ///   - relevance: When the suggestion applies.
    public init<IntentType: WidgetConfigurationIntent>(_ intent: IntentType, widgetKind: String,
                                                       relevance: RelevantContext) {
        self.intent = intent
        self.widgetKind = widgetKind
        self.relevance = relevance
    }
}

/// A host that stores the app's relevant intents; it conforms by also being the task's ``HostBinding``.
public protocol RelevantIntentHost: HostBinding {
    /// Replaces the app's whole set of relevant intents (an empty array clears it).
    func updateRelevantIntents(_ relevantIntents: [RelevantIntent]) async throws
}
