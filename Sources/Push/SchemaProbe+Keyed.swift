/// The probe's keyed container: every member is present; `decodeNil` marks a member optional (the default
/// `decodeIfPresent` asks it before decoding), and `allKeys` offers one key a `[String: …]` dictionary accepts.
struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let slot: ProbeSlot
    let context: ProbeContext

    /// The key a dictionary's `init(from:)` gets from `allKeys`; its values describe `additionalProperties`.
    static var anyKeyText: String { "\u{1}additionalProperties" }

    var codingPath: [any CodingKey] { context.path }
    var allKeys: [Key] { Key(stringValue: Self.anyKeyText).map { [$0] } ?? [] }

    func contains(_ key: Key) -> Bool { true }

    func decodeNil(forKey key: Key) -> Bool {
        slot.optional.insert(key.stringValue)
        member(key).nullable = true
        return false
    }

    private func member(_ key: Key) -> ProbeSlot {
        if key.stringValue == Self.anyKeyText {
            let additional = slot.additional ?? ProbeSlot()
            slot.additional = additional
            return additional
        }
        return slot.property(key.stringValue)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decode(generic: type, forKey: key)
    }

    /// Every `decode` lands here; the primitive overloads a container must implement cannot call the generic one
    /// by its name without calling themselves.
    private func decode<T: Decodable>(generic type: T.Type, forKey key: Key) throws -> T {
        if key.stringValue != Self.anyKeyText { slot.required.insert(key.stringValue) }
        return try SchemaProbe.sample(type, into: member(key), context: context.appending(key))
    }

    /// An optional member: described even when no sample of it can be built, and the probe goes on without it.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        _ = decodeNil(forKey: key)
        return try? SchemaProbe.sample(type, into: member(key), context: context.appending(key))
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(generic: type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(generic: type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(generic: type, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(generic: type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(generic: type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(generic: type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(generic: type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(generic: type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(generic: type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(generic: type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(generic: type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(generic: type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(generic: type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(generic: type, forKey: key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type,
                                               forKey key: Key) -> KeyedDecodingContainer<NestedKey> {
        slot.required.insert(key.stringValue)
        return SchemaProbe(slot: member(key), context: context.appending(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedDecodingContainer {
        slot.required.insert(key.stringValue)
        return SchemaProbe(slot: member(key), context: context.appending(key)).unkeyedContainer()
    }

    func superDecoder() -> any Decoder { SchemaProbe(slot: slot, context: context) }

    func superDecoder(forKey key: Key) -> any Decoder {
        SchemaProbe(slot: member(key), context: context.appending(key))
    }
}
