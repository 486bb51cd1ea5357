import Foundation

/// The `Encoder` a value on a ``JSONTape`` is given: its containers fill the tape's container `index`.
struct TapeEncoder: Encoder {
    let tape: JSONTape
    let index: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        tape.make(index, object: true)
        return KeyedEncodingContainer(TapeKeyedContainer<Key>(tape: tape, index: index, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        tape.make(index, object: false)
        return TapeUnkeyedContainer(tape: tape, index: index, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        TapeSingleContainer(tape: tape, index: index, codingPath: codingPath)
    }
}

/// An object's members, appended in the order written; ``JSONTape`` sorts them and keeps each key's last write.
///
/// A member of the root object that the encoder omits (``JSONTape/omits(_:in:)``) is not encoded at all.
private struct TapeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let tape: JSONTape
    let index: Int
    let codingPath: [any CodingKey]

    private func append(_ key: Key, _ write: (inout JSONTextWriter) throws -> Void) rethrows {
        let name = key.stringValue
        guard !tape.omits(name, in: index) else { return }
        tape.append(name, .text(try tape.text(write)), to: index)
    }

    mutating func encodeNil(forKey key: Key) throws { append(key) { $0.null() } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { append(key) { $0.bool(value) } }
    mutating func encode(_ value: String, forKey key: Key) throws { append(key) { $0.string(value) } }
    mutating func encode(_ value: Int, forKey key: Key) throws { append(key) { $0.int(value) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        append(key) { JSONTape.writeInteger(value, into: &$0) }
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        append(key) { JSONTape.writeInteger(value, into: &$0) }
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        let name = key.stringValue
        guard !tape.omits(name, in: index) else { return }
        let start = tape.scalars.bytes.count
        try tape.writeNumber(value) { codingPath + [key] }
        tape.append(name, .text(start..<tape.scalars.bytes.count), to: index)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let name = key.stringValue
        guard !tape.omits(name, in: index) else { return }
        let reference = try tape.reference(to: value) { codingPath + [key] }
        tape.append(name, reference, to: index)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey> {
        // An omitted member's container is still handed out (the caller fills it), but left off the object.
        let child = tape.newContainer()
        let name = key.stringValue
        if !tape.omits(name, in: index) { tape.append(name, .container(child), to: index) }
        return TapeEncoder(tape: tape, index: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = tape.newContainer()
        let name = key.stringValue
        if !tape.omits(name, in: index) { tape.append(name, .container(child), to: index) }
        return TapeEncoder(tape: tape, index: child, codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { UnsupportedTapeEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { UnsupportedTapeEncoder() }
}

/// An array's elements, in the order written.
private struct TapeUnkeyedContainer: UnkeyedEncodingContainer {
    let tape: JSONTape
    let index: Int
    let codingPath: [any CodingKey]
    var count: Int { tape.containers[index].members.count }

    private func append(_ write: (inout JSONTextWriter) throws -> Void) rethrows {
        tape.append("", .text(try tape.text(write)), to: index)
    }

    mutating func encodeNil() throws { append { $0.null() } }
    mutating func encode(_ value: Bool) throws { append { $0.bool(value) } }
    mutating func encode(_ value: String) throws { append { $0.string(value) } }
    mutating func encode(_ value: Int) throws { append { $0.int(value) } }
    mutating func encode(_ value: Double) throws {
        let start = tape.scalars.bytes.count
        try tape.writeNumber(value) { codingPath }
        tape.append("", .text(start..<tape.scalars.bytes.count), to: index)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let reference = try tape.reference(to: value) { codingPath }
        tape.append("", reference, to: index)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey> {
        let child = tape.newContainer()
        tape.append("", .container(child), to: index)
        return TapeEncoder(tape: tape, index: child, codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = tape.newContainer()
        tape.append("", .container(child), to: index)
        return TapeEncoder(tape: tape, index: child, codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { UnsupportedTapeEncoder() }
}

/// A single value replaces whatever its container held.
private struct TapeSingleContainer: SingleValueEncodingContainer {
    let tape: JSONTape
    let index: Int
    let codingPath: [any CodingKey]

    private func set(_ write: (inout JSONTextWriter) throws -> Void) rethrows {
        tape.containers[index].kind = .scalar(try tape.text(write))
    }

    mutating func encodeNil() throws { set { $0.null() } }
    mutating func encode(_ value: Bool) throws { set { $0.bool(value) } }
    mutating func encode(_ value: String) throws { set { $0.string(value) } }
    mutating func encode(_ value: Int) throws { set { $0.int(value) } }
    mutating func encode(_ value: Int64) throws { set { JSONTape.writeInteger(value, into: &$0) } }
    mutating func encode(_ value: UInt64) throws { set { JSONTape.writeInteger(value, into: &$0) } }
    mutating func encode(_ value: Double) throws {
        let start = tape.scalars.bytes.count
        try tape.writeNumber(value) { codingPath }
        tape.containers[index].kind = .scalar(start..<tape.scalars.bytes.count)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        switch try tape.reference(to: value, path: { codingPath }) {
        case .text(let range):
            tape.containers[index].kind = .scalar(range)
        case .container(let child):
            tape.containers[index] = tape.containers[child]
        }
    }
}

/// `superEncoder` is rare in entry types: encoding through it fails with ``JSONValueEncoder/Unsupported`` at the
/// first container asked for, and the caller falls back to `JSONEncoder`.
private struct UnsupportedTapeEncoder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RefusingKeyed<Key>())
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { RefusingUnkeyed() }
    func singleValueContainer() -> any SingleValueEncodingContainer { RefusingSingle() }
}

private let unsupportedSuperEncoder = JSONValueEncoder.Unsupported(what: "superEncoder")

private struct RefusingKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws { throw unsupportedSuperEncoder }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw unsupportedSuperEncoder }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey> { KeyedEncodingContainer(RefusingKeyed<NestedKey>()) }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { RefusingUnkeyed() }
    mutating func superEncoder() -> any Encoder { UnsupportedTapeEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { UnsupportedTapeEncoder() }
}

private struct RefusingUnkeyed: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }
    mutating func encodeNil() throws { throw unsupportedSuperEncoder }
    mutating func encode<T: Encodable>(_ value: T) throws { throw unsupportedSuperEncoder }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey> { KeyedEncodingContainer(RefusingKeyed<NestedKey>()) }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { RefusingUnkeyed() }
    mutating func superEncoder() -> any Encoder { UnsupportedTapeEncoder() }
}

private struct RefusingSingle: SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil() throws { throw unsupportedSuperEncoder }
    mutating func encode<T: Encodable>(_ value: T) throws { throw unsupportedSuperEncoder }
}
