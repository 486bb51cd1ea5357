import Foundation

/// What the engine refuses, with what was wrong and where. Nothing is changed when one is thrown.
public enum EngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No widget kind with this name is registered.
    case unknownKind(String)
    /// The kind does not support this family.
    case unsupportedFamily(kind: String, family: String, supported: [String])
    /// No such family name.
    case unknownFamily(String)
    /// No placed instance has this id.
    case unknownInstance(String)
    /// An instance with this id already exists.
    case duplicateInstance(String)
    /// A parameter value is wrong; `parameter` names it.
    case invalidParameter(kind: String, parameter: String, problem: String)
    /// A parameter the intent does not declare.
    case unknownParameter(kind: String, parameter: String, known: [String])
    /// A required parameter has no value, no default and no query default.
    case missingParameter(kind: String, parameter: String)
    /// The kind's parameter has no options to list (not an entity or enum).
    case parameterHasNoOptions(kind: String, parameter: String)
    /// The provider's timeline was refused.
    case timelineRejected(kind: String, reason: String)
    /// A stored row could not be decoded (the database was changed behind the engine's back).
    case corruptRow(column: String, detail: String)

    /// A plain sentence naming what is wrong.
    public var description: String {
        switch self {
        case .unknownKind(let kind):
            "no widget kind named '\(kind)' is registered"
        case .unsupportedFamily(let kind, let family, let supported):
            "widget kind '\(kind)' does not support family '\(family)' (supported: \(supported.joined(separator: ", ")))"
        case .unknownFamily(let family):
            "'\(family)' is not a widget family"
        case .unknownInstance(let id):
            "no widget instance with id '\(id)'"
        case .duplicateInstance(let id):
            "a widget instance with id '\(id)' already exists"
        case .invalidParameter(let kind, let parameter, let problem):
            "parameter '\(parameter)' of '\(kind)': \(problem)"
        case .unknownParameter(let kind, let parameter, let known):
            "'\(kind)' has no parameter '\(parameter)' (its parameters: \(known.joined(separator: ", ")))"
        case .missingParameter(let kind, let parameter):
            "parameter '\(parameter)' of '\(kind)' is required and has no value, no default and no query default"
        case .parameterHasNoOptions(let kind, let parameter):
            "parameter '\(parameter)' of '\(kind)' is not an entity or enum, so it has no options to list"
        case .timelineRejected(let kind, let reason):
            "the timeline provider of '\(kind)' returned an unusable timeline: \(reason)"
        case .corruptRow(let column, let detail):
            "stored column '\(column)' could not be read: \(detail)"
        }
    }
}
