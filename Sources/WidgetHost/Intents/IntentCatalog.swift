import AppIntents
import Foundation

/// The interactive intents a host can perform, by name.
///
/// A widget's `Button(intent:)` or `Toggle(isOn:intent:)` names an intent type; a host receiving a tap (over
/// HTTP, from the command line, from a test) names it by string. Register each type once; the name defaults to
/// the Swift type name (`CompleteTaskIntent`).
///
/// ```swift
/// var intents = IntentCatalog()
/// intents.register(CompleteTaskIntent.self)
/// intents.register(ToggleFavoriteIntent.self)
/// ```
public struct IntentCatalog: Sendable {
    private var descriptors: [String: IntentDescriptor] = [:]
    private var order: [String] = []

    /// Creates an empty catalog.
    public init() {}

    /// Registers an intent type.
    /// - Parameters:
    ///   - type: The intent type; its `init()` makes the fresh instance each perform uses.
    ///   - name: The name hosts use; defaults to the type's name. Registering a name twice is a programming error.
    public mutating func register<Intent: AppIntent>(_ type: Intent.Type, name: String? = nil) {
        let name = name ?? String(describing: Intent.self)
        precondition(!name.isEmpty, "an intent needs a non-empty name")
        precondition(descriptors[name] == nil, "intent '\(name)' is registered twice")
        descriptors[name] = IntentDescriptor(name: name, type: type)
        order.append(name)
    }

    /// The intent registered under `name`, if any.
    public func descriptor(named name: String) -> IntentDescriptor? { descriptors[name] }

    /// All intents in registration order.
    public var intents: [IntentDescriptor] { order.compactMap { descriptors[$0] } }
}

/// A registered intent type: its name, its title and its parameters.
public struct IntentDescriptor: Sendable {
    /// The name hosts perform it by.
    public let name: String
    /// The intent type.
    public let type: any AppIntent.Type

    /// The intent's title as shown to people.
    public var title: String { type.intentTitle }

    /// The intent's parameters, as declared, in declaration order.
    public var parameters: [IntentParameterDeclaration] { type.parameterDeclarations }

    /// A fresh instance whose parameters hold their defaults (the system's `init()` step).
    func makeIntent() -> any AppIntent { type.init() }
}
