/// The probe's unkeyed container: an array of one element, whose schema becomes the array's `items`.
struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
    let slot: ProbeSlot
    let context: ProbeContext
    private(set) var currentIndex = 0

    init(slot: ProbeSlot, context: ProbeContext) {
        self.slot = slot
        self.context = context
    }

    var codingPath: [any CodingKey] { context.path }
    var count: Int? { 1 }
    var isAtEnd: Bool { currentIndex >= 1 }

    private var items: ProbeSlot {
        let items = slot.items ?? ProbeSlot()
        slot.items = items
        return items
    }

    private var elementContext: ProbeContext { context.appending(ProbeIndex(intValue: currentIndex)) }

    mutating func decodeNil() -> Bool {
        items.nullable = true
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decode(generic: type)
    }

    /// Every `decode` lands here (see ``ProbeKeyedContainer``).
    private mutating func decode<T: Decodable>(generic type: T.Type) throws -> T {
        defer { currentIndex += 1 }
        return try SchemaProbe.sample(type, into: items, context: elementContext)
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decode(generic: type) }
    mutating func decode(_ type: String.Type) throws -> String { try decode(generic: type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decode(generic: type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decode(generic: type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decode(generic: type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decode(generic: type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decode(generic: type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decode(generic: type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decode(generic: type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decode(generic: type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(generic: type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decode(generic: type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decode(generic: type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decode(generic: type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedDecodingContainer<NestedKey> {
        defer { currentIndex += 1 }
        return SchemaProbe(slot: items, context: elementContext).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedDecodingContainer {
        defer { currentIndex += 1 }
        return SchemaProbe(slot: items, context: elementContext).unkeyedContainer()
    }

    mutating func superDecoder() -> any Decoder {
        defer { currentIndex += 1 }
        return SchemaProbe(slot: items, context: elementContext)
    }
}

/// An array index in a probe's coding path.
struct ProbeIndex: CodingKey {
    let intValue: Int?
    var stringValue: String { intValue.map(String.init) ?? "" }

    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

/// The probe's single-value container: a scalar (or a type decoding itself from one) recorded into the slot.
struct ProbeSingleValueContainer: SingleValueDecodingContainer {
    let slot: ProbeSlot
    let context: ProbeContext

    var codingPath: [any CodingKey] { context.path }

    func decodeNil() -> Bool {
        slot.nullable = true
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decode(generic: type) }

    /// Every `decode` lands here (see ``ProbeKeyedContainer``).
    private func decode<T: Decodable>(generic type: T.Type) throws -> T {
        try SchemaProbe.sample(type, into: slot, context: context)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decode(generic: type) }
    func decode(_ type: String.Type) throws -> String { try decode(generic: type) }
    func decode(_ type: Double.Type) throws -> Double { try decode(generic: type) }
    func decode(_ type: Float.Type) throws -> Float { try decode(generic: type) }
    func decode(_ type: Int.Type) throws -> Int { try decode(generic: type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decode(generic: type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decode(generic: type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decode(generic: type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decode(generic: type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decode(generic: type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(generic: type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decode(generic: type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decode(generic: type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decode(generic: type) }
}
