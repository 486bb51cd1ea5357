import Foundation

/// Objects with their members in `JSONEncoder`'s `.sortedKeys` order, and lists of plain strings written in one go.
extension JSONTextWriter {
    /// Writes a dictionary as an object whose members are sorted by key, each value written by `write`.
    package mutating func object<Value>(_ members: [String: Value],
                                _ write: (inout JSONTextWriter, Value) throws -> Void) throws {
        beginObject()
        try Self.forEachSorted(members) { name, member in
            key(name)
            try write(&self, member)
        }
        endObject()
    }

    /// Writes a dictionary of strings as an object whose members are sorted by key (not generic, so callers in
    /// other modules pay no generic dispatch).
    package mutating func object(_ members: [String: String]) {
        beginObject()
        Self.forEachSorted(members) { name, member in
            key(name)
            string(member)
        }
        endObject()
    }

    /// Calls `body` with each member in ``sorted(_:)``'s order. An intent's parameters are a member or two, so up
    /// to two are put in order in place; only larger dictionaries are copied out and sorted.
    private static func forEachSorted<Value>(_ members: [String: Value],
                                             _ body: (String, Value) throws -> Void) rethrows {
        switch members.count {
        case 0:
            return
        case 1:
            try body(members[members.startIndex].key, members[members.startIndex].value)
        case 2:
            var (earlier, later) = (members.startIndex, members.index(after: members.startIndex))
            if keyPrecedes(members[later].key, members[earlier].key) { swap(&earlier, &later) }
            try body(members[earlier].key, members[earlier].value)
            try body(members[later].key, members[later].value)
        default:
            for (name, member) in sorted(members) { try body(name, member) }
        }
    }

    /// Members in the order `JSONEncoder`'s `.sortedKeys` writes them: by the UTF-8 bytes of the keys.
    static func sorted<Value>(_ members: [String: Value]) -> [(key: String, value: Value)] {
        members.sorted { keyPrecedes($0.key, $1.key) }
    }

    /// Whether member `first` is written before member `second`: their UTF-8 bytes compared as unsigned bytes,
    /// the order of `JSONEncoder`'s `.sortedKeys`. Not generic, so writers in other modules sorting dictionaries
    /// of their own value types pay no generic dispatch for it.
    package static func keyPrecedes(_ first: String, _ second: String) -> Bool {
        var first = first
        var second = second
        return first.withUTF8 { lhs in
            second.withUTF8 { rhs in
                let common = min(lhs.count, rhs.count)
                if common > 0, let left = lhs.baseAddress, let right = rhs.baseAddress {
                    let order = memcmp(left, right, common)
                    if order != 0 { return order < 0 }
                }
                return lhs.count < rhs.count
            }
        }
    }

    /// A list of strings as ``string(_:)`` writes each, when none needs escaping; nil when one does.
    ///
    /// Written straight into the string's storage: no writer's buffer, and no allocation at all for a text of up
    /// to 15 bytes (`["TaskList"]`, the reloads a perform asks for), which a string holds in place.
    package static func plainText(strings: [String]) -> String? {
        var length = 1 + strings.count * 3 - (strings.isEmpty ? 0 : 1) + 1
        for var string in strings {
            let count: Int? = string.withUTF8 { utf8 in utf8.contains(where: needsEscaping) ? nil : utf8.count }
            guard let count else { return nil }
            length += count
        }
        return String(unsafeUninitializedCapacity: length) { buffer in
            var position = 0
            buffer[position] = UInt8(ascii: "[")
            position += 1
            for (index, var string) in strings.enumerated() {
                if index > 0 {
                    buffer[position] = UInt8(ascii: ",")
                    position += 1
                }
                buffer[position] = UInt8(ascii: "\"")
                position += 1
                string.withUTF8 { utf8 in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[position...]).initialize(fromContentsOf: utf8)
                    position += utf8.count
                }
                buffer[position] = UInt8(ascii: "\"")
                position += 1
            }
            buffer[position] = UInt8(ascii: "]")
            return position + 1
        }
    }
}
