import Foundation

/// Encodes an `Encodable` value straight to compact JSON text: byte for byte what ``JSONTextWriter`` writes for
/// the ``JSONValue`` that ``JSONValueEncoder`` makes of the same value, without building that value.
///
/// It exists for the timeline path, where every entry a provider returns is stored as text: building a `JSONValue`
/// tree (a dictionary per object, a box per value) only to write it out again was a third of a rebuild's CPU. The
/// contract is the canonical text the engine has always stored, so equal entries still give equal bytes:
/// - object members sorted by the UTF-8 bytes of their keys; when a key is written twice, the last write wins;
/// - whole doubles without a fraction (`1.0` is `1`, `-0.0` is `0`), other numbers as ``JSONTextWriter`` writes
///   them; integers beyond `Int` as doubles; `Float`s by their own shortest description;
/// - dates as ISO 8601 strings in UTC (seconds rounded down), `Data` as base64, `URL`s as their absolute string;
/// - a nested value that encodes nothing is `{}` (alone, it is refused); non-finite numbers are refused;
/// - `superEncoder` and `Decimal` throw ``JSONValueEncoder/Unsupported``, so that callers can fall back to
///   `JSONEncoder`.
///
/// `encode(to:)` hands members over in declaration order, and a nested container may still be filled after its
/// parent's later members, so nothing can be written in order as it arrives. Values go on a tape instead: every
/// scalar as finished text in one byte buffer, every container as a list of members pointing into it; the text is
/// written from the tape, members sorted, when the value is done. An encoder keeps its tape's buffers from one
/// value to the next, so encoding the entries of a timeline one after another allocates little.
///
/// Not thread-safe: one encoder per task.
package final class JSONTextEncoder {
    /// The tape of the value being encoded.
    let tape = JSONTape()

    /// Creates an encoder.
    package init() {}

    /// The text of `value`.
    ///
    /// An omitted member of the root object is not encoded at all, so its `encode(to:)` is never called: a value
    /// there that would have thrown (a non-finite number) no longer fails the whole value. The engine keeps such
    /// members (an entry's `date` and `relevance`) in fields of its own, taken from the entry itself, and never
    /// reads them from this text, so what is stored is the same whether they could be encoded or not. Two cases
    /// still encode an omitted member, and drop it only when the text is written (so a refusal there still fails
    /// the value): one filled through `nestedContainer(forKey:)`, whose container the caller fills itself, and
    /// the members of a root that encodes itself through a single-value container.
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - omittingTopLevelKeys: Members left out when the value is an object (an entry's `date` and `relevance`,
    ///     which the engine stores in fields of their own).
    /// - Returns: The UTF-8 bytes of the text.
    /// - Throws: `EncodingError.invalidValue` for a non-finite number or a value that encodes nothing;
    ///   ``JSONValueEncoder/Unsupported``.
    package func encode(_ value: some Encodable, omittingTopLevelKeys omitted: [String] = []) throws -> [UInt8] {
        var writer = JSONTextWriter(capacity: 0)
        try write(value, omitting: omitted, into: &writer)
        return writer.bytes
    }

    /// Appends the text of `value` to the encoder's ``output`` (a list of texts one after another, no separators),
    /// as ``encode(_:omittingTopLevelKeys:)`` writes it.
    ///
    /// For many values in a row (a timeline's entries): their texts share one buffer, taken with ``takeOutput()``,
    /// instead of an array each. When the value throws, nothing is appended.
    /// - Returns: Where the value's text is in ``output``.
    /// - Throws: As ``encode(_:omittingTopLevelKeys:)``.
    package func append(_ value: some Encodable, omittingTopLevelKeys omitted: [String] = []) throws -> Range<Int> {
        let start = output.bytes.count
        try write(value, omitting: omitted, into: &output)
        return start..<output.bytes.count
    }

    /// Makes room in ``output`` for at least `byteCount` more bytes (the texts of the values still to come, guessed
    /// from the first), so that it is not copied as it grows.
    package func reserveOutputCapacity(_ byteCount: Int) {
        output.bytes.reserveCapacity(output.bytes.count + byteCount)
    }

    /// The texts appended so far (``append(_:omittingTopLevelKeys:)``), leaving the encoder's output empty.
    package func takeOutput() -> [UInt8] {
        defer { output.bytes = [] }
        return output.bytes
    }

    /// The texts appended since the last ``takeOutput()``.
    ///
    /// Unchecked for exclusivity, as the tape's properties are (``JSONTape``): only this encoder's methods reach it,
    /// on one task at a time, and no access overlaps another.
    @exclusivity(unchecked) private var output = JSONTextWriter(capacity: 0)

    /// The last type found to encode itself through containers (``JSONTape/writeScalar(_:path:)`` is a function
    /// of the type alone): the values of a timeline are all of one type, and looking for a scalar type costs a
    /// conformance check of `BinaryInteger` per value.
    @exclusivity(unchecked) private var compositeType: ObjectIdentifier?

    private func write<Value: Encodable>(_ value: Value, omitting omitted: [String],
                                         into writer: inout JSONTextWriter) throws {
        tape.reset()
        if compositeType != ObjectIdentifier(Value.self) {
            if try tape.writeScalar(value, path: { [] }) {
                writer.bytes.append(contentsOf: tape.scalars.bytes)
                return
            }
            compositeType = ObjectIdentifier(Value.self)
        }
        let root = tape.newContainer()
        tape.omittedRootKeys = omitted
        defer { tape.omittedRootKeys = [] }
        try value.encode(to: TapeEncoder(tape: tape, index: root, codingPath: []))
        if case .empty = tape.containers[root].kind {
            // Nested, such a value is `{}`; alone, `JSONEncoder` refuses it.
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: [], debugDescription: "Top-level \(type(of: value)) did not encode any values."))
        }
        // A writer of its own gets room at once; a shared output grows as arrays do (reserving an exact size per
        // value would copy it each time).
        if writer.bytes.isEmpty { writer.bytes.reserveCapacity(tape.scalars.bytes.count + 64) }
        tape.write(container: root, omitting: omitted, into: &writer)
    }

    /// The text of `value`, with an encoder of its own.
    package static func encode(_ value: some Encodable) throws -> [UInt8] {
        try JSONTextEncoder().encode(value)
    }
}

/// Values under construction: scalars as text in one buffer, containers as member lists, by index.
///
/// Its stored properties are `@exclusivity(unchecked)`: a class's stored property otherwise pays a dynamic
/// exclusivity check (a thread-local access set) on every access from code the compiler cannot see through, which
/// is every container call an `Encodable` type makes, and those checks were a fifth of encoding a timeline entry.
/// That is safe because no access to them overlaps another: a tape belongs to one encoder, used by one task at a
/// time (the encoder is not `Sendable`), and the only long access, ``text(_:)`` handing `scalars` to a closure, is
/// given closures of this file that write a scalar and never reach back into the tape.
final class JSONTape {
    enum Kind {
        case empty
        /// A container replaced by a single value: its text.
        case scalar(Range<Int>)
        case object
        case array
    }

    /// Where a member's value is.
    enum Reference {
        case text(Range<Int>)
        case container(Int)
    }

    struct Member {
        /// The key; empty for an array's elements.
        var key: String
        var value: Reference
    }

    struct Container {
        var kind = Kind.empty
        var members: [Member] = []
    }

    /// Every scalar's text, one after another (a writer with no container open writes no separators).
    @exclusivity(unchecked) var scalars = JSONTextWriter(capacity: 512)
    /// The containers of the value being encoded, then slots of earlier values kept for their members' storage.
    @exclusivity(unchecked) var containers: [Container] = []
    /// How many of `containers` belong to the value being encoded.
    @exclusivity(unchecked) private var used = 0
    /// Members of the root object (container 0) that are left out of the text: their values are not even put on
    /// the tape. A root that takes its members from a single-value container gets them from another container,
    /// whose omitted members are dropped when the text is written instead.
    @exclusivity(unchecked) var omittedRootKeys: [String] = []

    /// Whether a member `key` of the container `index` is left out without being encoded.
    func omits(_ key: String, in index: Int) -> Bool {
        index == 0 && !omittedRootKeys.isEmpty && omittedRootKeys.contains(key)
    }

    func reset() {
        scalars.bytes.removeAll(keepingCapacity: true)
        used = 0
    }

    func newContainer() -> Int {
        if used < containers.count {
            containers[used].kind = .empty
            containers[used].members.removeAll(keepingCapacity: true)
        } else {
            containers.append(Container())
        }
        used += 1
        return used - 1
    }

    /// Turns the container into an object (or an array), unless it already is one.
    func make(_ index: Int, object: Bool) {
        switch (containers[index].kind, object) {
        case (.object, true), (.array, false): return
        default:
            containers[index].kind = object ? .object : .array
            containers[index].members.removeAll(keepingCapacity: true)
        }
    }

    func append(_ key: String, _ value: Reference, to index: Int) {
        containers[index].members.append(Member(key: key, value: value))
    }

    // MARK: Scalars

    /// Runs `write` on the scalar buffer and returns the text it wrote.
    func text(_ write: (inout JSONTextWriter) throws -> Void) rethrows -> Range<Int> {
        let start = scalars.bytes.count
        try write(&scalars)
        return start..<scalars.bytes.count
    }

    /// Writes one of `JSONEncoder`'s special cases (scalars, dates, data, URLs, every number type) to the scalar
    /// buffer; false, writing nothing, for a value that encodes itself through containers.
    ///
    /// Types are found by comparing metatypes (a pointer comparison each), not by trying casts in turn.
    func writeScalar<T: Encodable>(_ value: T, path: () -> [any CodingKey]) throws -> Bool {
        if T.self == String.self {
            scalars.string(value as! String)
        } else if T.self == Int.self {
            scalars.int(value as! Int)
        } else if T.self == Double.self {
            try writeNumber(value as! Double, path: path)
        } else if T.self == Bool.self {
            scalars.bool(value as! Bool)
        } else if T.self == Date.self {
            // An ISO 8601 date needs no escaping.
            scalars.bytes.append(UInt8(ascii: "\""))
            DateTimeText.write(value as! Date, into: &scalars.bytes)
            scalars.bytes.append(UInt8(ascii: "\""))
        } else if T.self == Data.self {
            scalars.base64(value as! Data)
        } else if T.self == URL.self {
            scalars.string((value as! URL).absoluteString)
        } else if T.self == Decimal.self {
            throw JSONValueEncoder.Unsupported(what: "Decimal")
        } else if T.self == Float.self {
            let float = value as! Float
            guard float.isFinite else { throw Self.nonFinite(float, path: path()) }
            try writeNumber(Double(float.description) ?? Double(float), path: path)
        } else if T.self is any BinaryInteger.Type, let integer = value as? any BinaryInteger {
            // Every other integer type: their `encode(to:)` asks a single-value container to encode them, which
            // comes back here, so they must not reach the containers.
            Self.writeInteger(integer, into: &scalars)
        } else {
            return false
        }
        return true
    }

    /// A double as ``JSONValueEncoder`` makes it: a whole value whose text ends in `.0` is an integer.
    ///
    /// ``JSONTextWriter/double(_:)`` already writes a whole value without its `.0` (below 2^53 straight from its
    /// integer); the one case it writes otherwise is -0, which is `0` here.
    func writeNumber(_ value: Double, path: () -> [any CodingKey]) throws {
        guard value.isFinite else { throw Self.nonFinite(value, path: path()) }
        if value == 0 {
            scalars.int(0)
        } else {
            try scalars.double(value)
        }
    }

    static func writeInteger(_ value: some BinaryInteger, into writer: inout JSONTextWriter) {
        // Beyond `Int`, `JSONEncoder` writes the digits and a parser reads a double.
        if let int = Int(exactly: value) {
            writer.int(int)
        } else {
            try? writer.double(Double(value))
        }
    }

    static func nonFinite(_ value: Any, path: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(value, EncodingError.Context(
            codingPath: path, debugDescription: "Unable to encode \(value) directly in JSON."))
    }

    // MARK: Values

    /// Puts `value` on the tape: its text, or a container it fills.
    func reference<T: Encodable>(to value: T, path: () -> [any CodingKey]) throws -> Reference {
        let start = scalars.bytes.count
        if try writeScalar(value, path: path) { return .text(start..<scalars.bytes.count) }
        let index = newContainer()
        try value.encode(to: TapeEncoder(tape: self, index: index, codingPath: path()))
        return .container(index)
    }

    // MARK: Writing

    func write(_ reference: Reference, into writer: inout JSONTextWriter) {
        switch reference {
        case .text(let range):
            writer.separate()
            writer.bytes.append(contentsOf: scalars.bytes[range])
        case .container(let index):
            write(container: index, omitting: [], into: &writer)
        }
    }

    func write(container index: Int, omitting omitted: [String], into writer: inout JSONTextWriter) {
        let container = containers[index]
        switch container.kind {
        case .empty:
            writer.beginObject()
            writer.endObject()
        case .scalar(let range):
            write(.text(range), into: &writer)
        case .array:
            writer.beginArray()
            for member in container.members { write(member.value, into: &writer) }
            writer.endArray()
        case .object:
            writer.beginObject()
            if index == 0, let plan = rootPlan, plan.fits(container.members, omitting: omitted) {
                for member in plan.written {
                    writer.key(container.members[member].key)
                    write(container.members[member].value, into: &writer)
                }
                writer.endObject()
                return
            }
            var written: [Int] = []
            container.members.withUnsafeBufferPointer { members in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: members.count) { order in
                    Self.sortKeys(members, into: order)
                    for (position, member) in order.enumerated() {
                        let key = members[member].key
                        // Of a key written twice, the last write is kept (the sort keeps their order).
                        if position + 1 < order.count, members[order[position + 1]].key == key { continue }
                        if !omitted.isEmpty, omitted.contains(key) { continue }
                        writer.key(key)
                        write(members[member].value, into: &writer)
                        written.append(member)
                    }
                }
            }
            if index == 0 {
                rootPlan = RootPlan(keys: container.members.map(\.key), omitted: omitted, written: written)
            }
            writer.endObject()
        }
    }

    /// Which members of a root object are written, in which order, for one sequence of keys: the values of one
    /// type (a timeline's entries) write the same keys in the same order, so the sort is done once for them all.
    struct RootPlan {
        /// The keys in the order the value wrote them.
        var keys: [String]
        var omitted: [String]
        /// The members written, in the order written.
        var written: [Int]

        /// Whether the plan is the one for these members.
        func fits(_ members: [Member], omitting omitted: [String]) -> Bool {
            guard members.count == keys.count, omitted == self.omitted else { return false }
            for (member, key) in zip(members, keys) where member.key != key { return false }
            return true
        }
    }

    /// The plan of the last root object written.
    @exclusivity(unchecked) private var rootPlan: RootPlan?

    /// The members' indices in the order they are written: by the UTF-8 bytes of their keys, and in the order
    /// written for equal keys. Objects of a handful of members, the usual, take an insertion sort in place.
    static func sortKeys(_ members: UnsafeBufferPointer<Member>, into order: UnsafeMutableBufferPointer<Int>) {
        guard members.count <= 16 else {
            for index in members.indices { order[index] = index }
            var sorting = order   // the same memory: sorting it sorts `order`
            sorting.sort { precedes(members[$0].key, $0, members[$1].key, $1) }
            return
        }
        for index in members.indices {
            var position = index
            while position > 0, precedes(members[index].key, index, members[order[position - 1]].key,
                                         order[position - 1]) {
                order[position] = order[position - 1]
                position -= 1
            }
            order[position] = index
        }
    }

    private static func precedes(_ key: String, _ index: Int, _ other: String, _ otherIndex: Int) -> Bool {
        if key == other { return index < otherIndex }
        return JSONTextWriter.keyPrecedes(key, other)
    }
}
