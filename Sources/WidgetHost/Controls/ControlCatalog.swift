import AppIntents
import JSON
import WidgetKit

/// The control kinds (Control Center, Lock Screen, Action button) an engine serves.
///
/// A toggle is a `SetValueIntent` whose value is a `Bool` and a value provider reading the state it shows; a button
/// is any `AppIntent`. Build the catalog, then hand it to ``WidgetEngine/init(catalog:store:clock:budget:timeZone:containers:activityRules:controls:)``.
///
/// ```swift
/// var controls = ControlCatalog()
/// controls.registerToggle(kind: "com.example.focus", intent: ToggleFocusIntent.self, provider: FocusValueProvider())
/// controls.registerButton(kind: "com.example.end", intent: EndAllSessionsIntent.self)
/// ```
public struct ControlCatalog: Sendable {
    private var descriptors: [String: ControlKindDescriptor] = [:]
    private var order: [String] = []

    /// Creates an empty catalog.
    public init() {}

    /// Registers a toggle control kind (`ControlWidgetToggle` over a `StaticControlConfiguration`).
    /// - Parameters:
    ///   - kind: The kind string; registering the same kind twice is a programming error.
    ///   - intent: The intent the toggle performs with its new state as `value`.
    ///   - provider: Reads the toggle's current state.
    public mutating func registerToggle<Intent: SetValueIntent, Provider: ControlValueProvider>(
        kind: String, intent: Intent.Type, provider: Provider
    ) where Intent.ValueType == Bool, Provider.Value == Bool {
        add(ControlKindDescriptor(kind: kind, style: .toggle, intentName: String(describing: Intent.self),
                                  intentType: intent, previewValue: .bool(provider.previewValue)) { _ in
            .bool(try await provider.currentValue())
        })
    }

    /// Registers a configurable toggle control kind (`ControlWidgetToggle` over an `AppIntentControlConfiguration`):
    /// each placed control carries values for the provider's `Configuration` intent, validated when it is placed.
    ///
    /// Performing the toggle runs `intent` with `value` set and, for every parameter `intent` declares under a name
    /// the configuration intent also declares, the placed control's configured value (the iOS control's view builds
    /// its action intent from its configuration the same way, for example `SetTimerIntent(timer: config.timer)`).
    /// - Parameters:
    ///   - kind: The kind string; registering the same kind twice is a programming error.
    ///   - intent: The intent the toggle performs with its new state as `value`.
    ///   - provider: Reads the toggle's current state from a placed control's configuration.
    public mutating func registerToggle<Intent: SetValueIntent, Provider: AppIntentControlValueProvider>(
        kind: String, intent: Intent.Type, provider: Provider
    ) where Intent.ValueType == Bool, Provider.Value == Bool {
        add(ControlKindDescriptor(kind: kind, style: .toggle, intentName: String(describing: Intent.self),
                                  intentType: intent, previewValue: nil,
                                  configuration: IntentDescriptor(name: String(describing: Provider.Configuration.self),
                                                                  type: Provider.Configuration.self)) { configuration in
            guard let configuration = configuration as? Provider.Configuration else {
                throw ControlError.invalidConfiguration(kind: kind, parameter: nil,
                                                        problem: "the control has no \(Provider.Configuration.self)")
            }
            return .bool(try await provider.currentValue(configuration: configuration))
        })
    }

    /// Registers a button control kind (`ControlWidgetButton`), which performs `intent` when pressed and shows no value.
    /// - Parameters:
    ///   - kind: The kind string; registering the same kind twice is a programming error.
    ///   - intent: The intent a press performs.
    public mutating func registerButton<Intent: AppIntent>(kind: String, intent: Intent.Type) {
        add(ControlKindDescriptor(kind: kind, style: .button, intentName: String(describing: Intent.self),
                                  intentType: intent, previewValue: nil, readValue: nil))
    }

    /// Registers a configurable button control kind: each placed control carries values for `configuration`,
    /// validated when it is placed, and a press runs `intent` with the configured values of the parameters both
    /// intents declare (see ``registerToggle(kind:intent:provider:)-(_,_,AppIntentControlValueProvider)``).
    /// - Parameters:
    ///   - kind: The kind string; registering the same kind twice is a programming error.
    ///   - intent: The intent a press performs.
    ///   - configuration: The intent whose parameters configure each placed control.
    public mutating func registerButton<Intent: AppIntent, Configuration: ControlConfigurationIntent>(
        kind: String, intent: Intent.Type, configuration: Configuration.Type
    ) {
        add(ControlKindDescriptor(kind: kind, style: .button, intentName: String(describing: Intent.self),
                                  intentType: intent, previewValue: nil,
                                  configuration: IntentDescriptor(name: String(describing: Configuration.self),
                                                                  type: configuration),
                                  readValue: nil))
    }

    private mutating func add(_ descriptor: ControlKindDescriptor) {
        precondition(!descriptor.kind.isEmpty, "a control kind needs a non-empty kind string")
        precondition(descriptors[descriptor.kind] == nil, "control kind '\(descriptor.kind)' is registered twice")
        descriptors[descriptor.kind] = descriptor
        order.append(descriptor.kind)
    }

    /// The kind registered under `kind`, if any.
    public func descriptor(kind: String) -> ControlKindDescriptor? { descriptors[kind] }

    /// All kinds in registration order.
    public var kinds: [ControlKindDescriptor] { order.compactMap { descriptors[$0] } }

    /// `intents` with every control's intent added under its name: a control is performed by the same runner as a
    /// widget's intents, so it must find the intent by name without the app registering it twice.
    func addingIntents(to intents: IntentCatalog) -> IntentCatalog {
        var intents = intents
        for descriptor in kinds {
            if let existing = intents.descriptor(named: descriptor.intentName) {
                precondition(ObjectIdentifier(existing.type) == ObjectIdentifier(descriptor.intentType),
                             "intent name '\(descriptor.intentName)' names another type than control '\(descriptor.kind)''s")
            } else {
                intents.register(descriptor.intentType, name: descriptor.intentName)
            }
        }
        return intents
    }
}
