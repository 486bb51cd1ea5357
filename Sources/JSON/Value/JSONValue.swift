import Foundation

/// A JSON value: what widget parameters, stored entries and API bodies are made of.
///
/// Numbers keep the distinction between integers and other numbers, so `3` read back is still an `Int`.
/// Objects keep their keys sorted when encoded, so equal values encode to equal bytes (configuration keys
/// are hashed from them).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue: Codable {
    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as plain JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// Parses JSON text.
    /// - Parameter text: UTF-8 JSON.
    /// - Throws: `DecodingError` naming where the text is malformed.
    public init(parsing text: String) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    /// Parses JSON bytes.
    /// - Parameter data: UTF-8 JSON.
    public init(parsing data: Data) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The value as compact JSON with sorted keys: equal values give equal text.
    ///
    /// The text is what `JSONEncoder` writes with `[.sortedKeys, .withoutEscapingSlashes]`, byte for byte, written
    /// directly (``JSONTextWriter``). NaN and infinite doubles cannot be written and stop the program.
    public var canonicalText: String {
        var writer = JSONTextWriter(capacity: 64)
        do {
            try writer.value(self)
        } catch {
            preconditionFailure("JSONValue always encodes: \(error)")
        }
        return writer.text
    }

    /// A short name of the value's JSON type, for error messages ("expected an integer, got a string").
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The members of an object, or nil.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// The value as a `Double` when it is a number (an integer or not), or nil.
    ///
    /// Pushes carry times and scores as numbers of either kind; readers want one type to compare.
    public var numberValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The text of a string, or nil.
    public var stringValue: String? {
        if case .string(let text) = self { text } else { nil }
    }
}
