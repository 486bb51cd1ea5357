import AppIntents
import Foundation
import JSON
import WidgetKit

/// What the engine needs from a widget kind's provider, with the provider's entry and intent types erased.
///
/// Implementations convert typed entries to ``EntrySnapshot``s before returning, so nothing non-`Sendable`
/// crosses into the engine.
protocol TimelineSource: Sendable {
    /// The configuration intent's type name, or nil for a static widget.
    var intentTypeName: String? { get }
    /// The intent's parameters in declaration order (empty for a static widget).
    var parameterDeclarations: [IntentParameterDeclaration] { get }

    /// Resolves raw parameters into canonical ones, with findings. Static widgets accept only `{}`.
    func resolve(_ raw: [String: JSONValue], kind: String) async throws -> ResolvedParameters
    /// Runs the timeline path for resolved parameters.
    func timeline(_ parameters: [String: JSONValue], kind: String, context: TimelineProviderContext)
        async throws -> ProviderTimeline
    /// The placeholder entry (never runs the timeline path).
    func placeholder(context: TimelineProviderContext) -> EntrySnapshot
    /// The snapshot entry, `isPreview` as the context says (never runs the timeline path).
    func snapshot(_ parameters: [String: JSONValue], kind: String, context: TimelineProviderContext)
        async throws -> EntrySnapshot
    /// Options for one parameter: suggested entities, a string search, or enum cases.
    func options(parameter: String, matching: String?, kind: String) async throws -> [ParameterOption]
    /// The configured intent for `WidgetInfo`, nil for a static widget.
    func configurationIntent(_ parameters: [String: JSONValue], kind: String) async
        -> (any WidgetConfigurationIntent)?
}

/// Resolved parameters and what resolving them found.
struct ResolvedParameters: Sendable {
    var parameters: [String: JSONValue]
    var diagnostics: [TimelineDiagnostic]
}

/// A provider's timeline, entries in provider order.
struct ProviderTimeline: Sendable {
    var entries: [EntrySnapshot]
    var policy: ReloadPolicyRecord
    var diagnostics: [TimelineDiagnostic]
}

/// One choice a host can offer for a parameter: an entity, or an enum case.
public struct ParameterOption: Sendable, Hashable, Codable {
    /// The value to send back as the parameter (an entity id or enum raw value).
    public var value: JSONValue
    /// Display title.
    public var title: String
    /// Display subtitle, if any.
    public var subtitle: String?

    /// Creates an option.
    public init(value: JSONValue, title: String, subtitle: String? = nil) {
        self.value = value
        self.title = title
        self.subtitle = subtitle
    }
}
