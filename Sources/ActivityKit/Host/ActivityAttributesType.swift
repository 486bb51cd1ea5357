import Foundation

/// An `ActivityAttributes` type as a host sees it: its name, and how a device decodes its JSON.
///
/// A push's `content-state` reaches a device as JSON and is decoded into the app's `ContentState` with
/// `JSONDecoder`'s default strategies (a `Date` is a number of seconds since 2001-01-01, keys as written, no
/// conversion of `"128"` to `128`); when that decoding throws, the device drops the push. A host holds one of
/// these per type so that it decides exactly as the device would, also for types it learns of only after a restart
/// (register them with the engine's catalog).
public struct ActivityAttributesType: Sendable {
    /// The type's name as pushes carry it in `attributes-type`: the Swift type's name, `String(describing:)`.
    public let name: String
    private let decodeContentState: @Sendable (Data) throws -> Data
    private let decodeAttributes: @Sendable (Data) throws -> Data

    /// Describes `type`.
    public init<Attributes: ActivityAttributes>(_ type: Attributes.Type) {
        name = String(describing: type)
        decodeContentState = { try Self.reencode(Attributes.ContentState.self, $0) }
        decodeAttributes = { try Self.reencode(Attributes.self, $0) }
    }

    /// Decodes `json` as the type's `ContentState`, as the device does, and returns it encoded again the way the
    /// app's own `JSONEncoder` would write it (keys sorted), which is how hosts store content.
    /// - Throws: The `DecodingError` a device would meet.
    public func normalizedContentState(_ json: Data) throws -> Data {
        try decodeContentState(json)
    }

    /// Decodes `json` as the attributes type and returns it encoded again (keys sorted).
    /// - Throws: The `DecodingError` a device would meet.
    public func normalizedAttributes(_ json: Data) throws -> Data {
        try decodeAttributes(json)
    }

    private static func reencode<Value: Codable>(_ type: Value.Type, _ json: Data) throws -> Data {
        let value = try JSONDecoder().decode(type, from: json)
        return try ActivityCoding.encode(value)
    }
}

/// How `ActivityKit` encodes attributes and content states for a host: `JSONEncoder` with its default strategies
/// (as the device's own encoding), keys sorted so that equal values have equal bytes.
enum ActivityCoding {
    static func encode<Value: Encodable>(_ value: Value) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }
}
