import Foundation

/// Why a perform did not happen. Whatever the case, nothing was changed.
public enum IntentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No intent is registered under this name.
    case unknownIntent(String, known: [String])
    /// A parameter the intent does not declare.
    case unknownParameter(intent: String, parameter: String, known: [String])
    /// A required parameter has no value and no default (widgets do not resolve parameters for app intents).
    case missingParameter(intent: String, parameter: String)
    /// A parameter value is wrong.
    case invalidParameter(intent: String, parameter: String, problem: String)
    /// An entity id the entity's query does not return.
    case unknownEntity(intent: String, parameter: String, entityType: String, id: String)
    /// The idempotency key was first used for a different request.
    case idempotencyKeyReused(intent: String, key: String)
    /// `perform()` threw; its savepoint was rolled back.
    case performFailed(intent: String, message: String)
    /// The shared transaction could not begin or commit; no perform in it was applied.
    case transactionFailed(intent: String, message: String)
    /// `perform()` wrote to an App Group outside the perform's container (not part of its transaction).
    case writeOutsideTransaction(intent: String, group: String)

    /// The intent concerned, when there is one.
    public var intentName: String? {
        switch self {
        case .unknownIntent(let name, _): name
        case .unknownParameter(let intent, _, _), .missingParameter(let intent, _),
             .invalidParameter(let intent, _, _), .unknownEntity(let intent, _, _, _),
             .idempotencyKeyReused(let intent, _), .performFailed(let intent, _),
             .transactionFailed(let intent, _), .writeOutsideTransaction(let intent, _): intent
        }
    }

    /// A plain sentence naming the intent and what went wrong.
    public var description: String {
        switch self {
        case .unknownIntent(let name, let known):
            "no intent named '\(name)' is registered (known: \(known.joined(separator: ", ")))"
        case .unknownParameter(let intent, let parameter, let known):
            "'\(intent)' has no parameter '\(parameter)' (its parameters: \(known.joined(separator: ", ")))"
        case .missingParameter(let intent, let parameter):
            "parameter '\(parameter)' of '\(intent)' is required and has no value and no default"
        case .invalidParameter(let intent, let parameter, let problem):
            "parameter '\(parameter)' of '\(intent)': \(problem)"
        case .unknownEntity(let intent, let parameter, let type, let id):
            "parameter '\(parameter)' of '\(intent)': no \(type) with id '\(id)'"
        case .idempotencyKeyReused(let intent, let key):
            "\(intent): idempotency key '\(key)' was first used for a different request (another intent, "
                + "parameters or widget); use a new key"
        case .performFailed(let intent, let message):
            "\(intent) failed: \(message); nothing was changed"
        case .transactionFailed(let intent, let message):
            "\(intent) was not applied: the transaction failed: \(message)"
        case .writeOutsideTransaction(let intent, let group):
            "\(intent) wrote to App Group '\(group)', which is outside its transaction; nothing was changed"
        }
    }
}
