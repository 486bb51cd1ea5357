import Foundation

/// Encodes an `Encodable` value straight into a ``JSONValue`` tree: the value that `JSONEncoder` (dates as
/// `.iso8601`) would write and ``JSONParser`` would read back, without the text in between.
///
/// It exists for the timeline path, where every entry a provider returns becomes a `JSONValue`: encoding to text
/// and parsing it again cost more than the provider itself. It follows `JSONEncoder`'s rules where they show in
/// the value: dates as ISO 8601 strings in UTC (seconds rounded down), `Data` as base64, `URL`s as their absolute
/// string, `Float`s by their own shortest description, whole doubles (written without a fraction) read back as
/// integers, non-finite numbers refused, a nested value that encodes nothing is an empty object (alone, it is
/// refused). What it does not reproduce (`superEncoder`, `Decimal`) throws ``Unsupported``, so that callers can
/// fall back to `JSONEncoder`.
package enum JSONValueEncoder {
    /// A shape this encoder leaves to `JSONEncoder`.
    package struct Unsupported: Error {
        let what: String
    }

    /// The JSON value of `value`.
    /// - Throws: `EncodingError.invalidValue` for a non-finite number; ``Unsupported``.
    package static func encode(_ value: some Encodable) throws -> JSONValue {
        if let scalar = try Node.scalar(value, path: []) { return scalar }
        let node = try Node.composite(value, path: [])
        if case .empty = node.storage {
            // Nested, such a value is `{}`; alone, `JSONEncoder` refuses it.
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: [], debugDescription: "Top-level \(type(of: value)) did not encode any values."))
        }
        return node.value
    }
}

/// One container under construction, shared by reference while its encoder fills it.
///
/// Members are kept as finished values; only containers handed out by `nestedContainer` and
/// `nestedUnkeyedContainer`, which their caller may still fill after writing other members, stay open as nodes
/// until the value is read. So a member costs a dictionary slot, not an object of its own.
private final class Node {
    enum Storage {
        case empty
        case scalar(JSONValue)
        case object([String: JSONValue], open: [String: Node])
        /// Open elements hold `null` in `elements` until the value is read.
        case array([JSONValue], open: [Int: Node])
    }

    var storage = Storage.empty

    init() {}

    var value: JSONValue {
        switch storage {
        case .empty: return .object([:])
        case .scalar(let value): return value
        case .object(var members, let open):
            for (key, node) in open { members[key] = node.value }
            return .object(members)
        case .array(var elements, let open):
            for (index, node) in open { elements[index] = node.value }
            return .array(elements)
        }
    }

    /// The value of `value`, through its own containers unless it is one of `JSONEncoder`'s special cases.
    static func encoding<T: Encodable>(_ value: T, path: [any CodingKey]) throws -> JSONValue {
        if let scalar = try scalar(value, path: path) { return scalar }
        return try composite(value, path: path).value
    }

    /// A value that encodes itself through containers, encoded.
    static func composite<T: Encodable>(_ value: T, path: [any CodingKey]) throws -> Node {
        let node = Node()
        try value.encode(to: TreeEncoder(node: node, codingPath: path))
        return node
    }

    /// The value of one of `JSONEncoder`'s special cases (scalars, dates, data, URLs, every number type); nil for
    /// a value that encodes itself through containers.
    ///
    /// The type is found by comparing metatypes (a pointer comparison each) rather than by trying `as?` casts in
    /// turn, which are run-time casts in this unspecialized code: each member of an entry failed ten of them before.
    static func scalar<T: Encodable>(_ value: T, path: [any CodingKey]) throws -> JSONValue? {
        if T.self == String.self { return .string(value as! String) }
        if T.self == Int.self { return .int(value as! Int) }
        if T.self == Double.self { return try number(value as! Double, path: path) }
        if T.self == Bool.self { return .bool(value as! Bool) }
        if T.self == Date.self {
            var bytes: [UInt8] = []
            DateTimeText.write(value as! Date, into: &bytes)
            return .string(String(decoding: bytes, as: UTF8.self))
        }
        if T.self == Data.self { return .string((value as! Data).base64EncodedString()) }
        if T.self == URL.self { return .string((value as! URL).absoluteString) }
        if T.self == Decimal.self { throw JSONValueEncoder.Unsupported(what: "Decimal") }
        if T.self == Float.self {
            let float = value as! Float
            guard float.isFinite else { throw nonFinite(float, path: path) }
            return try number(Double(float.description) ?? Double(float), path: path)
        }
        // Every other integer type too: their `encode(to:)` asks a single-value container to encode them, which
        // comes back here, so they must not reach the containers.
        if T.self is any BinaryInteger.Type, let integer = value as? any BinaryInteger {
            return Node.integer(integer)
        }
        return nil
    }

    /// A double as `JSONEncoder` writes it and a parser reads it back: `1.0` is written `1`, an integer.
    static func number(_ value: Double, path: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else { throw nonFinite(value, path: path) }
        // A value with a fraction is never written as an integer: only whole values need their text looked at.
        guard value.rounded(.towardZero) == value else { return .double(value) }
        let text = value.description
        if text.hasSuffix(".0"), let integer = Int(exactly: value) { return .int(integer) }
        return .double(value)
    }

    static func integer(_ value: some BinaryInteger) -> JSONValue {
        // Beyond `Int`, `JSONEncoder` writes the digits and a parser reads a double.
        if let int = Int(exactly: value) { return .int(int) }
        return .double(Double(value))
    }

    static func nonFinite(_ value: Any, path: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(value, EncodingError.Context(
            codingPath: path, debugDescription: "Unable to encode \(value) directly in JSON."))
    }

    /// Takes the object's parts out (leaving the node empty, so they are edited in place rather than copied).
    func takeObject() -> (members: [String: JSONValue], open: [String: Node]) {
        defer { storage = .empty }
        if case .object(let members, let open) = storage { return (members, open) }
        return ([:], [:])
    }

    /// Takes the array's parts out (leaving the node empty, so they are edited in place rather than copied).
    func takeArray() -> (elements: [JSONValue], open: [Int: Node]) {
        defer { storage = .empty }
        if case .array(let elements, let open) = storage { return (elements, open) }
        return ([], [:])
    }

    var count: Int {
        if case .array(let elements, _) = storage { return elements.count }
        return 0
    }
}

private struct TreeEncoder: Encoder {
    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.storage {} else { node.storage = .object([:], open: [:]) }
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.storage {} else { node.storage = .array([], open: [:]) }
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(node: node, codingPath: codingPath)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]

    /// The last write to a key wins, finished value or open container.
    private func set(_ value: JSONValue, _ key: Key) {
        var (members, open) = node.takeObject()
        members[key.stringValue] = value
        if !open.isEmpty { open[key.stringValue] = nil }
        node.storage = .object(members, open: open)
    }

    private func setOpen(_ child: Node, _ key: Key) {
        var (members, open) = node.takeObject()
        members[key.stringValue] = nil
        open[key.stringValue] = child
        node.storage = .object(members, open: open)
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(Node.integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(Node.integer(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        set(try Node.number(value, path: codingPath + [key]), key)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try Node.encoding(value, path: codingPath + [key]), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey> {
        let child = Node()
        setOpen(child, key)
        return TreeEncoder(node: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = Node()
        setOpen(child, key)
        return TreeEncoder(node: child, codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { UnsupportedEncoder(codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { UnsupportedEncoder(codingPath: codingPath) }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]
    var count: Int { node.count }

    private func append(_ value: JSONValue) {
        var (elements, open) = node.takeArray()
        elements.append(value)
        node.storage = .array(elements, open: open)
    }

    private func appendOpen(_ child: Node) {
        var (elements, open) = node.takeArray()
        open[elements.count] = child
        elements.append(.null)
        node.storage = .array(elements, open: open)
    }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Int) throws { append(.int(value)) }
    mutating func encode(_ value: Double) throws { append(try Node.number(value, path: codingPath)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try Node.encoding(value, path: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey> {
        let child = Node()
        appendOpen(child)
        return TreeEncoder(node: child, codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = Node()
        appendOpen(child)
        return TreeEncoder(node: child, codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { UnsupportedEncoder(codingPath: codingPath) }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.storage = .scalar(.null) }
    mutating func encode(_ value: Bool) throws { node.storage = .scalar(.bool(value)) }
    mutating func encode(_ value: String) throws { node.storage = .scalar(.string(value)) }
    mutating func encode(_ value: Int) throws { node.storage = .scalar(.int(value)) }
    mutating func encode(_ value: Int64) throws { node.storage = .scalar(Node.integer(value)) }
    mutating func encode(_ value: UInt64) throws { node.storage = .scalar(Node.integer(value)) }
    mutating func encode(_ value: Double) throws { node.storage = .scalar(try Node.number(value, path: codingPath)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let scalar = try Node.scalar(value, path: codingPath) {
            node.storage = .scalar(scalar)
        } else {
            node.storage = try Node.composite(value, path: codingPath).storage
        }
    }
}

/// `superEncoder` is rare in entry types and its `JSONEncoder` semantics are intricate: encoding through it fails
/// with ``JSONValueEncoder/Unsupported`` at the first container asked for, and the caller falls back.
private struct UnsupportedEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FailingKeyed<Key>(codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { FailingUnkeyed(codingPath: codingPath) }
    func singleValueContainer() -> any SingleValueEncodingContainer { FailingSingle(codingPath: codingPath) }
}

private let unsupportedSuper = JSONValueEncoder.Unsupported(what: "superEncoder")

private struct FailingKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let codingPath: [any CodingKey]
    mutating func encodeNil(forKey key: Key) throws { throw unsupportedSuper }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw unsupportedSuper }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey> { KeyedEncodingContainer(FailingKeyed<NestedKey>(codingPath: codingPath)) }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        FailingUnkeyed(codingPath: codingPath)
    }
    mutating func superEncoder() -> any Encoder { UnsupportedEncoder(codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { UnsupportedEncoder(codingPath: codingPath) }
}

private struct FailingUnkeyed: UnkeyedEncodingContainer {
    let codingPath: [any CodingKey]
    var count: Int { 0 }
    mutating func encodeNil() throws { throw unsupportedSuper }
    mutating func encode<T: Encodable>(_ value: T) throws { throw unsupportedSuper }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey> { KeyedEncodingContainer(FailingKeyed<NestedKey>(codingPath: codingPath)) }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { FailingUnkeyed(codingPath: codingPath) }
    mutating func superEncoder() -> any Encoder { UnsupportedEncoder(codingPath: codingPath) }
}

private struct FailingSingle: SingleValueEncodingContainer {
    let codingPath: [any CodingKey]
    mutating func encodeNil() throws { throw unsupportedSuper }
    mutating func encode<T: Encodable>(_ value: T) throws { throw unsupportedSuper }
}
