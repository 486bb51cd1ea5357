import Foundation

/// A Smart Stack: placed widget instances in the order the user arranged them.
///
/// The order is the tie-breaker of ranking (earlier wins) and the fallback top when nothing is relevant.
public struct SmartStack: Sendable, Hashable, Codable {
    /// The stack's name, unique in the engine.
    public var id: String
    /// Its instances' ids, in the user's order.
    public var instanceIDs: [String]
    /// When it was created, on the engine's clock.
    public var createdAt: Date

    /// Creates a stack value (use ``WidgetEngine/createStack(_:instanceIDs:)`` to store one).
    public init(id: String, instanceIDs: [String], createdAt: Date) {
        self.id = id
        self.instanceIDs = instanceIDs
        self.createdAt = createdAt
    }
}

/// What the stack operations refuse. Nothing is changed when one is thrown.
public enum SmartStackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No stack has this name.
    case unknownStack(String)
    /// A stack with this name already exists.
    case duplicateStack(String)
    /// A stack name must not be empty.
    case emptyName
    /// The instance is already in the stack.
    case alreadyInStack(stack: String, instance: String)
    /// The instance is not in the stack.
    case notInStack(stack: String, instance: String)

    /// A plain sentence naming what is wrong.
    public var description: String {
        switch self {
        case .unknownStack(let id): "no stack named '\(id)'"
        case .duplicateStack(let id): "a stack named '\(id)' already exists"
        case .emptyName: "a stack needs a non-empty name"
        case .alreadyInStack(let stack, let instance): "instance '\(instance)' is already in stack '\(stack)'"
        case .notInStack(let stack, let instance): "instance '\(instance)' is not in stack '\(stack)'"
        }
    }
}
