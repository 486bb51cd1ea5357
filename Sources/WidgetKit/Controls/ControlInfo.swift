import AppIntents

/// One placed control: its kind, identity and configuration.
///
/// Apple's `pushInfo` (a control's push token) is not modelled: WidgetHost's device has one push token for widgets and
/// controls, handed to the `WidgetPushHandler` (see `Docs/controls.md`).
///
/// Mirrors [ControlInfo](https://developer.apple.com/documentation/widgetkit/controlinfo).
public struct ControlInfo: Sendable, CustomStringConvertible {
    /// The control's kind string.
    public let kind: String
    /// The placed control's stable identity.
    public let id: String
    private let configurationIntent: (any ControlConfigurationIntent)?

    /// Describes a placed control; hosts call this.
    ///
    /// - Parameters:
    ///   - kind: The control's kind string.
    ///   - id: The placed control's identifier.
    ///   - configurationIntent: The control's configuration, or `nil` for a control without one. Pass an intent no
    ///     one else holds: intents share their parameter storage with copies.
    public init(kind: String, id: String, configurationIntent: (any ControlConfigurationIntent)?) {
        self.kind = kind
        self.id = id
        self.configurationIntent = configurationIntent
    }

    /// The control's configuration intent, if it has one of type `Intent`.
    ///
    /// - Returns: `nil` when the control has no configuration or its intent is of another type.
    ///
    /// Mirrors [configurationIntent(of:)](https://developer.apple.com/documentation/widgetkit/controlinfo/configurationintent(of:)).
    public func configurationIntent<Intent: ControlConfigurationIntent>(of intentType: Intent.Type = Intent.self) -> Intent? {
        configurationIntent as? Intent
    }

    /// `kind #id`.
    public var description: String { "\(kind) #\(id)" }
}
