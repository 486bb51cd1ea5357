import AppIntents
import JSON

/// A registered control kind: what it is, the intent it performs and how its value is read.
public struct ControlKindDescriptor: Sendable {
    /// A control's shape.
    public enum Style: String, Sendable, Hashable, Codable {
        /// On or off: performing sets the intent's `value`.
        case toggle
        /// Pressed: performing runs the intent as it is.
        case button
    }

    /// The kind string.
    public let kind: String
    /// Toggle or button.
    public let style: Style
    /// The name its intent is performed by in the ``IntentRunner``'s catalog (the intent type's name).
    public let intentName: String
    /// The intent type.
    public let intentType: any AppIntent.Type
    /// The provider's preview value; nil for a button, and for a configurable toggle (whose preview depends on
    /// a configuration).
    public let previewValue: JSONValue?
    /// The `ControlConfigurationIntent` whose parameters each placed control carries; nil for a static control.
    public let configuration: IntentDescriptor?
    /// Reads the current value through the app's provider, with the engine bound, given the placed control's bound
    /// configuration intent (nil for a static control); nil for a button.
    let readValue: (@Sendable ((any AppIntent)?) async throws -> JSONValue)?

    init(kind: String, style: Style, intentName: String, intentType: any AppIntent.Type, previewValue: JSONValue?,
         configuration: IntentDescriptor? = nil, readValue: (@Sendable ((any AppIntent)?) async throws -> JSONValue)?) {
        self.kind = kind
        self.style = style
        self.intentName = intentName
        self.intentType = intentType
        self.previewValue = previewValue
        self.configuration = configuration
        self.readValue = readValue
    }

    /// Whether placed controls of this kind carry a configuration.
    public var isConfigurable: Bool { configuration != nil }
}
