import AppIntents
import Foundation
import JSON

/// Converts between the JSON a host sends for a parameter and the intent's typed parameter values.
///
/// Accepted JSON per kind: `bool` true/false; `int` an integer; `double` any number; `string` a string; `date` a
/// date-time string (``DateTimeText``); `url` an absolute URL string with a scheme; `enum` one of the case raw values; `entity` the
/// entity's id as a string (or an integer for integer ids).
enum ParameterValueConversion {
    static func value(from json: JSONValue, for parameterKind: IntentParameterKind,
                      parameter: String, kind: String) throws -> IntentParameterValue {
        func mismatch(_ expected: String) -> EngineError {
            .invalidParameter(kind: kind, parameter: parameter, problem: "expected \(expected), got \(json.typeName)")
        }
        switch (parameterKind, json) {
        case (.bool, .bool(let value)): return .bool(value)
        case (.bool, _): throw mismatch("a boolean")
        case (.int, .int(let value)): return .int(value)
        case (.int, _): throw mismatch("an integer")
        case (.double, .int(let value)): return .double(Double(value))
        case (.double, .double(let value)): return .double(value)
        case (.double, _): throw mismatch("a number")
        case (.string, .string(let value)): return .string(value)
        case (.string, _): throw mismatch("a string")
        case (.date, .string(let text)):
            do {
                return .date(try DateTimeText.date(from: text, format: .instant))
            } catch {
                throw EngineError.invalidParameter(kind: kind, parameter: parameter,
                                                   problem: "\"\(text)\" is not a date-time: \(error)")
            }
        case (.date, _): throw mismatch("an ISO 8601 date string")
        case (.url, .string(let text)):
            guard let url = URL(string: text), url.scheme != nil else {
                throw EngineError.invalidParameter(kind: kind, parameter: parameter,
                                                   problem: "expected an absolute URL, got \"\(text)\"")
            }
            return .url(url)
        case (.url, _): throw mismatch("a URL string")
        case (.enumeration(let enumeration), .string(let raw)):
            guard enumeration.cases.contains(where: { $0.rawValue == raw }) else {
                let cases = enumeration.cases.map(\.rawValue).joined(separator: ", ")
                throw EngineError.invalidParameter(kind: kind, parameter: parameter,
                                                   problem: "expected one of \(cases), got \"\(raw)\"")
            }
            return .enumCase(raw)
        case (.enumeration, _): throw mismatch("an enum case name (string)")
        case (.entity, .string(let id)): return .entity(id: id)
        case (.entity, .int(let id)): return .entity(id: String(id))
        case (.entity, _): throw mismatch("an entity id (string)")
        }
    }

    static func json(from value: IntentParameterValue) -> JSONValue {
        switch value {
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .string(let value): .string(value)
        case .date(let date): .string(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        case .url(let url): .string(url.absoluteString)
        case .enumCase(let raw): .string(raw)
        case .entity(let id): .string(id)
        case .null: .null
        }
    }
}
