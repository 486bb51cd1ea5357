import AppIntents
import Foundation
import JSON

/// Turns what `.result(value:)` returned into JSON for an ``IntentOutcome``.
///
/// Booleans, numbers and strings map to themselves; entities to their id; `Encodable` values to their JSON
/// encoding; anything else to its `String(describing:)`.
enum IntentResultValue {
    static func json(_ value: (any Sendable)?) -> JSONValue? {
        guard let value else { return nil }
        switch value {
        case let value as Bool: return .bool(value)
        case let value as Int: return .int(value)
        case let value as Double: return .double(value)
        case let value as String: return .string(value)
        case let value as any AppEntity: return .string(value.id.entityIdentifierString)
        case let value as any Encodable:
            if let data = try? JSONEncoder().encode(value), let json = try? JSONValue(parsing: data) { return json }
            return .string(String(describing: value))
        default:
            return .string(String(describing: value))
        }
    }
}
