import Foundation

/// A `Decoder` over a parsed `JSONValue` tree that records which object members the decoded type read,
/// so ``StrictJSONDecoder`` can reject the members nobody asked for.
///
/// Scalars are strict: no number-to-bool or number-to-string conversions; an integral double (`3.0`)
/// decodes as an integer; integers must fit the requested width. Dates are ISO 8601 strings (with or
/// without fractional seconds) read by ``DateTimeText``, URLs are strings.
final class JSONTreeDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let usage: MemberUsage
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: JSONValue, codingPath: [any CodingKey], usage: MemberUsage) {
        self.value = value
        self.codingPath = codingPath
        self.usage = usage
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: JSONValue].self, expected: "an object") }
        usage.register(members, at: codingPath)
        return KeyedDecodingContainer(TreeKeyedContainer<Key>(members: members, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSONValue].self, expected: "an array") }
        return TreeUnkeyedContainer(elements: elements, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TreeSingleValueContainer(decoder: self)
    }

    /// A decoder for a child value.
    func child(_ value: JSONValue, key: any CodingKey) -> JSONTreeDecoder {
        JSONTreeDecoder(value: value, codingPath: codingPath + [key], usage: usage)
    }

    func mismatch(_ type: Any.Type, expected: String) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), got \(value.typeName)")
        )
    }

    /// Decodes the current value as `T`, handling scalars here and everything else through `T(from:)`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let scalar = try decodeScalar(type) { return scalar }
        return try T(from: self)
    }

    private func decodeScalar<T>(_ type: T.Type) throws -> T? {
        switch type {
        case is Bool.Type:
            guard case .bool(let flag) = value else { throw mismatch(type, expected: "a boolean") }
            return flag as? T
        case is String.Type:
            guard case .string(let text) = value else { throw mismatch(type, expected: "a string") }
            return text as? T
        case is Double.Type: return try number(type) as? T
        case is Float.Type: return try Float(number(type)) as? T
        case is Int.Type: return try integer(Int.self) as? T
        case is Int8.Type: return try integer(Int8.self) as? T
        case is Int16.Type: return try integer(Int16.self) as? T
        case is Int32.Type: return try integer(Int32.self) as? T
        case is Int64.Type: return try integer(Int64.self) as? T
        case is UInt.Type: return try integer(UInt.self) as? T
        case is UInt8.Type: return try integer(UInt8.self) as? T
        case is UInt16.Type: return try integer(UInt16.self) as? T
        case is UInt32.Type: return try integer(UInt32.self) as? T
        case is UInt64.Type: return try integer(UInt64.self) as? T
        case is Date.Type: return try date() as? T
        case is URL.Type:
            guard case .string(let text) = value, let url = URL(string: text) else { throw mismatch(type, expected: "a URL string") }
            return url as? T
        default: return nil
        }
    }

    private func number(_ type: Any.Type) throws -> Double {
        switch value {
        case .int(let integer): return Double(integer)
        case .double(let double): return double
        default: throw mismatch(type, expected: "a number")
        }
    }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        let expected = "an integer in \(I.min)...\(I.max)"
        switch value {
        case .int(let integer):
            guard let exact = I(exactly: integer) else { throw mismatch(type, expected: expected) }
            return exact
        case .double(let double):
            guard let exact = I(exactly: double) else { throw mismatch(type, expected: expected) }
            return exact
        default:
            throw mismatch(type, expected: "an integer")
        }
    }

    /// A date-time string of ``DateTimeFormat/instant``; see ``DateField``.
    private func date() throws -> Date {
        guard case .string(let text) = value else { throw mismatch(Date.self, expected: "a date-time string") }
        return try DateField.date(text, format: .instant, at: codingPath)
    }
}

/// The object members a decode read, per object, so the unread ones can be reported.
final class MemberUsage {
    private struct Entry {
        var codingPath: [any CodingKey]
        var members: [String: JSONValue]
        var read: Set<String> = []
        var readAll = false
    }

    private var entries: [String: Entry] = [:]

    func register(_ members: [String: JSONValue], at codingPath: [any CodingKey]) {
        let key = FieldPath.render(codingPath)
        if entries[key] == nil {
            entries[key] = Entry(codingPath: codingPath, members: members)
        }
    }

    func markRead(_ member: String, at codingPath: [any CodingKey]) {
        entries[FieldPath.render(codingPath)]?.read.insert(member)
    }

    func markAllRead(at codingPath: [any CodingKey]) {
        entries[FieldPath.render(codingPath)]?.readAll = true
    }

    /// The first member (by path, then name) that no decode asked for, as a full field path.
    func firstUnread() -> String? {
        for path in entries.keys.sorted() {
            guard let entry = entries[path], !entry.readAll else { continue }
            if let member = entry.members.keys.sorted().first(where: { !entry.read.contains($0) }) {
                return FieldPath.render(entry.codingPath + [FieldPath.Key(stringValue: member)])
            }
        }
        return nil
    }
}
