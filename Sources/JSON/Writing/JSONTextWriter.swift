import Foundation

/// Writes compact JSON text straight into bytes, byte for byte what Foundation's `JSONEncoder` writes with
/// `[.sortedKeys, .withoutEscapingSlashes]`, without going through `Encodable`.
///
/// It exists for hot paths (an idempotency record per perform, canonical keys): `JSONEncoder` builds a tree of
/// boxed values through protocol witnesses, which costs tens of microseconds for a small outcome. The rules it
/// reproduces (tests compare the two on awkward input):
/// - strings: `"` and `\` escaped, `\b \f \n \r \t`, other control characters as `\u00XX` (lower-case hex),
///   everything else (`/`, DEL, non-ASCII) as its UTF-8 bytes;
/// - object members sorted by the UTF-8 bytes of their keys (callers writing fixed members write them in that
///   order);
/// - integers in decimal; doubles as `description` without a trailing `.0` (`1e-07`, `1.5e+300`, `-0`); a
///   non-finite double is an error, as with `JSONEncoder`'s default strategy;
/// - dates as their `timeIntervalSinceReferenceDate` (the default `deferredToDate` strategy), data as base64.
public struct JSONTextWriter {
    /// The text so far.
    public internal(set) var bytes: [UInt8] = []
    /// How many containers are open.
    private var depth = 0
    /// Whether the next member or element needs a comma before it, per open container: bit `level` for the first
    /// 64 levels (no allocation, for the texts the engine writes), ``deeperCommas`` beyond.
    private var commaBits: UInt64 = 0
    private var deeperCommas: [Bool] = []

    /// Creates an empty writer with room for `capacity` bytes.
    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// The text as `Data`.
    public var data: Data { Data(bytes) }

    /// The text as a string.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    // MARK: Containers

    package mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        open()
    }

    package mutating func endObject() {
        close()
        bytes.append(UInt8(ascii: "}"))
    }

    package mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        open()
    }

    package mutating func endArray() {
        close()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Opens what a synthesized `Codable` enum case with one unlabeled associated value encodes to,
    /// `{"name":{"_0":`, in one append; the associated value follows, then ``endEnumCase()``.
    package mutating func beginEnumCase(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        bytes.append(UInt8(ascii: "\""))
        append(name)
        append("\":{\"_0\":")
        // The two objects opened, each with its one member's key written.
        open()
        open()
        afterKey = true
    }

    /// Closes what ``beginEnumCase(_:)`` opened.
    package mutating func endEnumCase() {
        close()
        close()
        bytes.append(UInt8(ascii: "}"))
        bytes.append(UInt8(ascii: "}"))
    }

    /// Opens a container level, whose first member or element takes no comma.
    private mutating func open() {
        if depth < 64 {
            commaBits &= ~(1 << UInt64(depth))
        } else {
            deeperCommas.append(false)
        }
        depth += 1
    }

    private mutating func close() {
        precondition(depth > 0, "no container is open")
        depth -= 1
        if depth >= 64 { deeperCommas.removeLast() }
    }

    /// Writes a member's key; the member's value follows.
    package mutating func key(_ key: String) {
        separate()
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Writes a member's key that needs no escaping (a property name: no quote, backslash or control character)
    /// without scanning it; the member's value follows.
    package mutating func key(plain key: StaticString) {
        assert(!UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
            .contains(where: Self.needsEscaping), "\(key) needs escaping")
        separate()
        bytes.append(UInt8(ascii: "\""))
        append(key)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// True between a key and its value, which takes no comma.
    private var afterKey = false

    /// Writes the comma a member or element needs, unless it is the first of its container or a member's value.
    /// Always inlined: it runs before every token.
    @inline(__always) mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0 else { return }
        let level = depth - 1
        if level < 64 {
            let bit: UInt64 = 1 << UInt64(level)
            if commaBits & bit != 0 { bytes.append(UInt8(ascii: ",")) } else { commaBits |= bit }
        } else if deeperCommas[level - 64] {
            bytes.append(UInt8(ascii: ","))
        } else {
            deeperCommas[level - 64] = true
        }
    }

    // MARK: Scalars

    package mutating func null() {
        separate()
        append("null")
    }

    package mutating func bool(_ value: Bool) {
        separate()
        append(value ? "true" : "false")
    }

    package mutating func string(_ value: String) {
        separate()
        writeString(value)
    }

    /// Writes the member `key` with a string value, or nothing when the value is nil (as `JSONEncoder` leaves out
    /// absent optionals).
    package mutating func member(_ key: String, _ value: String?) {
        guard let value else { return }
        self.key(key)
        string(value)
    }

    /// Writes the member `key` (which needs no escaping, as for ``key(plain:)``) with a string value.
    package mutating func member(plain key: StaticString, _ value: String) {
        self.key(plain: key)
        string(value)
    }

    package mutating func int<T: BinaryInteger>(_ value: T) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        writeDigits(UInt64(value.magnitude))
    }

    /// Writes an `Int`. Not generic: callers in other modules cannot specialize the generic `int(_:)`, and would
    /// pay protocol witness calls per digit.
    package mutating func int(_ value: Int) {
        int(Int64(value))
    }

    /// Writes an `Int64`, not generic either.
    package mutating func int(_ value: Int64) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        writeDigits(value.magnitude)
    }

    private mutating func writeDigits(_ value: UInt64) {
        // Appended at once from the stack: reversing them in `bytes` went through a copy of the slice.
        DecimalDigits.withASCII(of: value) { bytes.append(contentsOf: $0) }
    }

    /// Writes a double; throws for NaN and infinities, which JSON cannot carry.
    package mutating func double(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: [], debugDescription: "Unable to encode Double.\(value) directly in JSON."))
        }
        // A whole value below 2^53 (not -0.0) is its integer's digits, which is what `description` minus its ".0"
        // says, without building a `String`: dates in whole seconds are most of what the engine writes here.
        if value.rounded(.towardZero) == value, value.magnitude < Self.wholeDoubleLimit,
           value != 0 || value.sign == .plus {
            int(Int(value))   // separates
            return
        }
        separate()
        // The same value again (an outcome's time performed and time first performed): its text is copied from
        // the writer's own copy of it, not built again (`description` over 15 bytes is an allocation).
        if value.bitPattern == lastFraction.bitPattern {
            withUnsafeBytes(of: lastFractionText.bytes) { text in
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[..<lastFractionText.count]))
            }
            return
        }
        let start = bytes.count
        bytes.append(contentsOf: value.description.utf8)
        // `description` is ASCII: dropping a trailing ".0" from the bytes is dropping it from the text.
        if bytes.count - start >= 2, bytes[bytes.count - 1] == UInt8(ascii: "0"),
           bytes[bytes.count - 2] == UInt8(ascii: ".") {
            bytes.removeLast(2)
        }
        // Kept beside the value rather than as a range of ``bytes``, which an encoder reusing the writer empties.
        let count = bytes.count - start
        guard count <= MemoryLayout<FractionText.Bytes>.size else { return }
        lastFraction = value
        lastFractionText.count = count
        withUnsafeMutableBytes(of: &lastFractionText.bytes) { text in
            bytes.withUnsafeBufferPointer { written in
                text.copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: written[start...])))
            }
        }
    }

    /// The text of a double (at most 24 bytes: `-2.2250738585072014e-308`), held in place.
    private struct FractionText {
        typealias Bytes = (UInt64, UInt64, UInt64, UInt64)
        var bytes: Bytes = (0, 0, 0, 0)
        var count = 0
    }

    /// The last double written through `description`, and its text.
    private var lastFraction = Double.nan
    private var lastFractionText = FractionText()

    /// 2^53: every whole double below it is exactly an `Int`, and `description` writes its digits plus ".0".
    /// A constant rather than a stored `static let`, which is read through a lazy initializer's check every time.
    static var wholeDoubleLimit: Double { 9_007_199_254_740_992 }

    /// Writes a date as `JSONEncoder`'s default strategy does: seconds since 2001-01-01 as a number.
    package mutating func date(_ value: Date) throws {
        try double(value.timeIntervalSinceReferenceDate)
    }

    /// Writes data as a base64 string, as `JSONEncoder`'s default strategy does.
    package mutating func base64(_ value: Data) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: value.base64EncodedString().utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a value already encoded as JSON text by a writer with the same rules (for memoized parts).
    package mutating func encoded(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
    }

    /// Writes a value already encoded as JSON text, held in part of a larger buffer (the entries of a timeline
    /// share one), without copying it out first.
    package mutating func encoded(_ json: ArraySlice<UInt8>) {
        separate()
        bytes.append(contentsOf: json)
    }

    // MARK: JSON values

    /// Writes a JSON value, object members sorted.
    public mutating func value(_ value: JSONValue) throws {
        switch value {
        case .null: null()
        case .bool(let bool): self.bool(bool)
        case .int(let int): self.int(int)
        case .double(let double): try self.double(double)
        case .string(let string): self.string(string)
        case .array(let elements):
            beginArray()
            for element in elements { try self.value(element) }
            endArray()
        case .object(let members):
            try object(members) { writer, member in try writer.value(member) }
        }
    }

    // MARK: Bytes

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Whether a string's byte is written escaped: a quote, a backslash or a control character.
    @inline(__always) static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// `text` as a JSON string literal, escaped as the writer escapes strings (log lines use it).
    package static func quoted(_ text: String) -> String {
        var writer = JSONTextWriter()
        writer.writeString(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private mutating func writeString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard Self.needsEscaping(byte) else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
