/// HTTP header fields in the order they were added, looked up case-insensitively.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields as (name, value) pairs, names as written.
    public private(set) var fields: [(name: String, value: String)]

    /// Creates an empty set of headers.
    public init() {
        fields = []
    }

    /// Creates headers from literal pairs, e.g. `["Content-Type": "text/plain"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        // With room for the fields the server adds to every response (its request id, at times `Connection`).
        fields = []
        fields.reserveCapacity(elements.count + 2)
        for (name, value) in elements { fields.append((name: name, value: value)) }
    }

    /// The first value of the field `name` (any case), or nil. Setting replaces every field of that name;
    /// setting nil removes them.
    public subscript(name: String) -> String? {
        get {
            fields.first { Self.namesMatch($0.name, name) }?.value
        }
        set {
            if fields.contains(where: { Self.namesMatch($0.name, name) }) { remove(name) }
            if let newValue { add(name: name, value: newValue) }
        }
    }

    /// Every value of the field `name` (any case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Appends a field, keeping any earlier field of the same name.
    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Removes every field named `name` (any case).
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// Creates empty headers with room for `capacity` fields.
    init(capacity: Int) {
        fields = []
        fields.reserveCapacity(capacity)
    }

    /// Field names compare ASCII-case-insensitively, without allocating (this runs several times per request): by
    /// length first, which tells most names apart, then byte by byte over the strings' own storage.
    static func namesMatch(_ left: String, _ right: String) -> Bool {
        guard left.utf8.count == right.utf8.count else { return false }
        let matched = left.utf8.withContiguousStorageIfAvailable { lhs in
            right.utf8.withContiguousStorageIfAvailable { rhs in bytesMatch(lhs, rhs) }
        }
        if let matched, let matched { return matched }
        return left.utf8.elementsEqual(right.utf8, by: byteMatches)
    }

    private static func bytesMatch(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in left.indices where !byteMatches(left[index], right[index]) { return false }
        return true
    }

    /// Whether two bytes of field names match: the same, or the same ASCII letter in the other case.
    @inline(__always) private static func byteMatches(_ a: UInt8, _ b: UInt8) -> Bool {
        a == b || (a ^ b == 0x20 && (a | 0x20) >= UInt8(ascii: "a") && (a | 0x20) <= UInt8(ascii: "z"))
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}
