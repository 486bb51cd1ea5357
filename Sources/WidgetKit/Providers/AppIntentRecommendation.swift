/// A preconfigured widget offered where there is no configuration UI.
///
/// Mirrors [AppIntentRecommendation](https://developer.apple.com/documentation/widgetkit/appintentrecommendation).
public struct AppIntentRecommendation<Intent: AppIntent>: Sendable {
    /// The configured intent.
    public let intent: Intent
    /// The name of the recommendation as shown to people.
    public let description: String

    /// Recommends `intent`, named by a string.
    public init(intent: Intent, description: some StringProtocol) {
        self.intent = intent
        self.description = String(description)
    }

    /// Recommends `intent`, named by a localized resource.
    public init(intent: Intent, description: LocalizedStringResource) {
        self.intent = intent
        self.description = description.defaultValue
    }
}
