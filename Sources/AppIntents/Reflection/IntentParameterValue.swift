import Foundation
import JSON

/// A parameter value as a widget instance's configuration stores it: plain data, no Swift types.
///
/// Hosts read raw configuration JSON into these, and ``AnyIntentParameter/assign(_:)`` turns them
/// into typed values. Entities are stored by id (their `entityIdentifierString`), enum cases by raw
/// value.
///
/// JSON form (``init(from:)`` / ``encode(to:)``): `.bool`, `.int`, `.double`, `.string` and `.null`
/// are bare JSON values; the others are one-key objects: `{"date": "2024-05-01T09:30:00Z"}`
/// (ISO 8601, fractional seconds when present), `{"url": "https://…"}`, `{"enumCase": "high"}`,
/// `{"entity": "p1"}`.
public enum IntentParameterValue: Sendable, Hashable {
    /// A Boolean.
    case bool(Bool)
    /// An integer.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A string.
    case string(String)
    /// A point in time.
    case date(Date)
    /// A URL.
    case url(URL)
    /// An `AppEnum` case, by its raw value in string form.
    case enumCase(String)
    /// An `AppEntity`, by its id's `entityIdentifierString`.
    case entity(id: String)
    /// Explicitly no value (an optional parameter set to `nil`).
    case null
}

extension IntentParameterValue: CustomStringConvertible {
    /// A short description naming the case and value, for error messages, for example
    /// `string "abc"` or `entity id "p1"`.
    public var description: String {
        switch self {
        case .bool(let value): return "bool \(value)"
        case .int(let value): return "int \(value)"
        case .double(let value): return "double \(value)"
        case .string(let value): return "string \"\(value)\""
        case .date(let value): return "date \(IntentParameterValue.iso8601(value))"
        case .url(let value): return "url \(value.absoluteString)"
        case .enumCase(let value): return "enum case \"\(value)\""
        case .entity(let id): return "entity id \"\(id)\""
        case .null: return "null"
        }
    }

    /// Formats a date as ISO 8601 in UTC, with fractional seconds only when it has them.
    static func iso8601(_ date: Date) -> String {
        let hasFraction = date.timeIntervalSince1970.rounded(.down) != date.timeIntervalSince1970
        return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: hasFraction))
    }

    /// Parses a date-time (``DateTimeText``, ``DateTimeFormat/instant``): nil for anything else, never a date
    /// rolled forward.
    static func parseISO8601(_ string: String) -> Date? {
        try? DateTimeText.date(from: string, format: .instant)
    }
}
