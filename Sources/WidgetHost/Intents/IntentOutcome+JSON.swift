import Foundation
import JSON
import SharedState

/// The values an outcome's changes hold, as plain JSON: what the API's `/v1` outcome (and so the CLI's `--json`)
/// shows for a changed row's columns and a changed key's value.
extension IntentOutcome {
    /// A column value as plain JSON: integers and finite reals as numbers, text as strings, blobs base64.
    public static func json(_ value: SQLValue) -> JSONValue {
        switch value {
        case .null: .null
        case .integer(let value): .int(Int(value))
        case .real(let value): value.isFinite ? .double(value) : .string(String(value))
        case .text(let value): .string(value)
        case .blob(let value): .string(value.base64EncodedString())
        }
    }

    /// A defaults value as plain JSON: dates ISO 8601, data base64, arrays and dictionaries as JSON ones.
    public static func json(_ value: PropertyListValue) -> JSONValue {
        switch value {
        case .string(let value): .string(value)
        case .integer(let value): .int(value)
        case .double(let value): value.isFinite ? .double(value) : .string(String(value))
        case .bool(let value): .bool(value)
        case .data(let value): .string(value.base64EncodedString())
        case .date(let value): .string(iso8601(value))
        case .array(let values): .array(values.map(json))
        case .dictionary(let values): .object(values.mapValues(json))
        }
    }

    static func iso8601(_ date: Date) -> String {
        DateTimeText.string(from: date, fractionDigits: 3)
    }
}
