import Foundation
import JSON

extension IntentParameterValue: Codable {
    private enum TaggedKey: String, CodingKey {
        case date, url, enumCase, entity
    }

    /// Decodes the JSON form described on ``IntentParameterValue``.
    ///
    /// A bare JSON number decodes as `.int` when it is an integer, else `.double`. A `date` may also
    /// be a number of seconds since 1970.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: TaggedKey.self) {
            self = try IntentParameterValue.decodeTagged(container)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int.self) {
            self = .int(value)
        } else if let value = try? single.decode(Double.self) {
            self = .double(value)
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else {
            throw DecodingError.dataCorruptedError(
                in: single,
                debugDescription: "Expected a JSON bool, number, string, null, or a one-key object date/url/enumCase/entity"
            )
        }
    }

    private static func decodeTagged(_ container: KeyedDecodingContainer<TaggedKey>) throws -> IntentParameterValue {
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: container.codingPath,
                debugDescription: "A tagged parameter value has exactly one key: date, url, enumCase or entity"
            ))
        }
        switch key {
        case .date:
            if let seconds = try? container.decode(Double.self, forKey: .date) {
                return .date(Date(timeIntervalSince1970: seconds))
            }
            let text = try container.decode(String.self, forKey: .date)
            do {
                return .date(try DateTimeText.date(from: text, format: .instant))
            } catch {
                throw DecodingError.dataCorruptedError(
                    forKey: .date, in: container, debugDescription: "Not a date-time: \"\(text)\": \(error)")
            }
        case .url:
            let text = try container.decode(String.self, forKey: .url)
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .url, in: container, debugDescription: "Not a URL: \(text)")
            }
            return .url(url)
        case .enumCase:
            return .enumCase(try container.decode(String.self, forKey: .enumCase))
        case .entity:
            return .entity(id: try container.decode(String.self, forKey: .entity))
        }
    }

    /// Encodes the JSON form described on ``IntentParameterValue``.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .int(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .double(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .date(let value):
            var container = encoder.container(keyedBy: TaggedKey.self)
            try container.encode(IntentParameterValue.iso8601(value), forKey: .date)
        case .url(let value):
            var container = encoder.container(keyedBy: TaggedKey.self)
            try container.encode(value.absoluteString, forKey: .url)
        case .enumCase(let value):
            var container = encoder.container(keyedBy: TaggedKey.self)
            try container.encode(value, forKey: .enumCase)
        case .entity(let id):
            var container = encoder.container(keyedBy: TaggedKey.self)
            try container.encode(id, forKey: .entity)
        }
    }
}
