/// One placed widget: its kind, family and configuration.
///
/// Mirrors [WidgetInfo](https://developer.apple.com/documentation/widgetkit/widgetinfo).
public struct WidgetInfo: Sendable, CustomStringConvertible {
    /// The widget's kind string.
    public let kind: String
    /// The widget's family.
    public let family: WidgetFamily
    /// The placed widget's identifier.
    public let id: String
    private let configurationIntent: (any WidgetConfigurationIntent)?

    /// Describes a placed widget; hosts call this.
    ///
    /// - Parameters:
    ///   - kind: The widget's kind string.
    ///   - family: The widget's family.
    ///   - id: The placed widget's identifier.
    ///   - configurationIntent: The widget's resolved configuration, or `nil` for a static widget.
    ///     Pass an intent no one else holds: intents share their parameter storage with copies.
    public init(kind: String, family: WidgetFamily, id: String, configurationIntent: (any WidgetConfigurationIntent)?) {
        self.kind = kind
        self.family = family
        self.id = id
        self.configurationIntent = configurationIntent
    }

    /// The widget's configuration intent, if it has one of type `Intent`.
    ///
    /// - Returns: `nil` when the widget has no configuration or its intent is of another type.
    ///
    /// Mirrors [widgetConfigurationIntent(of:)](https://developer.apple.com/documentation/widgetkit/widgetinfo/widgetconfigurationintent(of:)).
    public func widgetConfigurationIntent<Intent: WidgetConfigurationIntent>(of intentType: Intent.Type = Intent.self) -> Intent? {
        configurationIntent as? Intent
    }

    /// `kind/family #id`.
    public var description: String { "\(kind)/\(family) #\(id)" }
}
