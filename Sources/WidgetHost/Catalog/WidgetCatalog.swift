import ActivityKit
import AppIntents
import Foundation
import JSON
import Push
import WidgetKit

/// The widget kinds an engine serves.
///
/// Build it by registering kinds, then hand it to ``WidgetEngine``; the engine holds an immutable copy.
///
/// ```swift
/// var catalog = WidgetCatalog()
/// catalog.register(kind: "ProjectProgress", families: [.systemSmall, .systemMedium],
///                  provider: ProjectProgressProvider())
/// ```
public struct WidgetCatalog: Sendable {
    private var descriptors: [String: WidgetKindDescriptor] = [:]
    private var order: [String] = []
    private var activityTypesByName: [String: ActivityAttributesType] = [:]
    private var activityTypeOrder: [String] = []
    private var contentStateSchemas: [String: JSONValue] = [:]
    /// Calls the registered `WidgetPushHandler`: a fresh handler per call, as the system makes one with `init()`.
    private(set) var widgetPushHandler: (@Sendable (WidgetPushInfo, [WidgetInfo]) -> Void)?

    /// Creates an empty catalog.
    public init() {}

    /// Registers a configurable widget kind (`AppIntentConfiguration`).
    /// - Parameters:
    ///   - kind: The kind string; registering the same kind twice is a programming error.
    ///   - displayName: Defaults to the configuration intent's title, as WidgetKit does.
    ///   - description: Defaults to the intent's description.
    ///   - families: Supported families; defaults to ``WidgetFamily/iPhoneDefaults``.
    ///   - provider: The timeline provider.
    public mutating func register<Provider: AppIntentTimelineProvider & Sendable>(
        kind: String, displayName: String? = nil, description: String? = nil,
        families: [WidgetFamily] = WidgetFamily.iPhoneDefaults, provider: Provider
    ) {
        add(WidgetKindDescriptor(
            kind: kind, displayName: displayName ?? Provider.Intent.intentTitle,
            description: description ?? Provider.Intent.intentDescriptionText ?? "",
            supportedFamilies: families, source: IntentTimelineSource(provider: provider)))
    }

    /// Registers a static widget kind (`StaticConfiguration`).
    /// - Parameters:
    ///   - kind: The kind string; registering the same kind twice is a programming error.
    ///   - displayName: The gallery name.
    ///   - description: The gallery description.
    ///   - families: Supported families; defaults to ``WidgetFamily/iPhoneDefaults``.
    ///   - provider: The timeline provider.
    public mutating func register<Provider: TimelineProvider & Sendable>(
        kind: String, displayName: String, description: String = "",
        families: [WidgetFamily] = WidgetFamily.iPhoneDefaults, provider: Provider
    ) {
        add(WidgetKindDescriptor(kind: kind, displayName: displayName, description: description,
                                 supportedFamilies: families, source: StaticTimelineSource(provider: provider)))
    }

    private mutating func add(_ descriptor: WidgetKindDescriptor) {
        precondition(!descriptor.kind.isEmpty, "a widget kind needs a non-empty kind string")
        precondition(!descriptor.supportedFamilies.isEmpty, "widget kind '\(descriptor.kind)' supports no family")
        precondition(descriptors[descriptor.kind] == nil, "widget kind '\(descriptor.kind)' is registered twice")
        descriptors[descriptor.kind] = descriptor
        order.append(descriptor.kind)
    }

    /// Registers a Live Activity attributes type, so the engine decodes its pushes (a push-to-start's
    /// `attributes`, every `content-state`) exactly as a device would, also after a restart. Types that app code
    /// starts with `Activity.request` are learnt on the way, but only until the engine stops.
    /// - Parameter type: The `ActivityAttributes` type; its name (`attributes-type` in pushes) is the Swift type's
    ///   name. Registering two types of one name is a programming error.
    public mutating func registerActivity<Attributes: ActivityAttributes>(_ type: Attributes.Type) {
        let described = ActivityAttributesType(type)
        precondition(activityTypesByName[described.name] == nil,
                     "activity attributes type '\(described.name)' is registered twice")
        activityTypesByName[described.name] = described
        activityTypeOrder.append(described.name)
        contentStateSchemas[described.name] = ContentStateSchema.schema(for: type)
    }

    /// Registers the app's widget push handler (`.pushHandler(_:)` on a widget configuration): the engine hands it
    /// the device's widget push token when the token is issued and whenever the set of placed widgets changes.
    /// - Parameter type: The handler type; registering a second one is a programming error, as an app has one.
    public mutating func registerWidgetPushHandler<Handler: WidgetPushHandler>(_ type: Handler.Type) {
        precondition(widgetPushHandler == nil, "a widget push handler is registered twice")
        widgetPushHandler = { info, widgets in Handler().pushTokenDidChange(info, widgets: widgets) }
    }

    /// The registered Live Activity attributes types, in registration order.
    public var activityTypes: [ActivityAttributesType] { activityTypeOrder.compactMap { activityTypesByName[$0] } }

    /// The JSON Schema of a registered type's `ContentState`, as far as a probing decoder can tell
    /// (`ContentStateSchema`: an enum that is not `CaseIterable` ends what it can see).
    public func contentStateSchema(attributesType name: String) -> JSONValue? { contentStateSchemas[name] }

    /// The kind registered under `kind`, if any.
    public func descriptor(kind: String) -> WidgetKindDescriptor? { descriptors[kind] }

    /// All kinds in registration order.
    public var kinds: [WidgetKindDescriptor] { order.compactMap { descriptors[$0] } }
}
