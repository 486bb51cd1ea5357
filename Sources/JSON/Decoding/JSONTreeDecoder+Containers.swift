import Foundation

/// Reads object members, recording each name asked for (even by `contains`) in the decoder's usage.
struct TreeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let decoder: JSONTreeDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        decoder.usage.markAllRead(at: codingPath)
        return members.keys.sorted().compactMap { Key(stringValue: $0) }
    }

    func contains(_ key: Key) -> Bool {
        decoder.usage.markRead(key.stringValue, at: codingPath)
        return members[key.stringValue] != nil
    }

    private func member(_ key: Key) throws -> JSONValue {
        decoder.usage.markRead(key.stringValue, at: codingPath)
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "missing member \"\(key.stringValue)\"")
            )
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try member(key) == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.child(member(key), key: key).decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try decoder.child(member(key), key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(member(key), key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = FieldPath.Key(stringValue: "super")
        decoder.usage.markRead(key.stringValue, at: codingPath)
        return decoder.child(members[key.stringValue] ?? .null, key: key)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.usage.markRead(key.stringValue, at: codingPath)
        return decoder.child(members[key.stringValue] ?? .null, key: key)
    }
}

/// Reads array elements in order.
struct TreeUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let decoder: JSONTreeDecoder
    private(set) var currentIndex = 0

    init(elements: [JSONValue], decoder: JSONTreeDecoder) {
        self.elements = elements
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next(_ type: Any.Type) throws -> JSONTreeDecoder {
        let key = FieldPath.Key(intValue: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "the array has too few elements")
            )
        }
        defer { currentIndex += 1 }
        return decoder.child(elements[currentIndex], key: key)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next(type).decode(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try next([String: JSONValue].self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([JSONValue].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try next(JSONValue.self)
    }
}

/// Reads the decoder's own value.
struct TreeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: JSONTreeDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        decoder.value == .null
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.decode(type)
    }
}
