import Foundation

/// How a ``PropertyListValue`` sits in the defaults table: a type name and a native SQLite value.
///
/// Scalars are stored natively (`TEXT`, `INTEGER`, `REAL`, `BLOB`; `bool` as 0/1; `date` as
/// REAL `timeIntervalSinceReferenceDate`) so the file is readable with the `sqlite3` tool.
/// Arrays and dictionaries are a `BLOB` in a small tagged binary encoding that keeps every
/// case and every bit (dictionary keys sorted, so equal values encode to equal bytes).
extension PropertyListValue {
    /// The `type` column value.
    var storageType: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .double: return "double"
        case .bool: return "bool"
        case .data: return "data"
        case .date: return "date"
        case .array: return "array"
        case .dictionary: return "dictionary"
        }
    }

    /// The `value` column value.
    var storageValue: SQLValue {
        switch self {
        case .string(let value): return .text(value)
        case .integer(let value): return .integer(Int64(value))
        case .double(let value): return .real(value)
        case .bool(let value): return .integer(value ? 1 : 0)
        case .data(let value): return .blob(value)
        case .date(let value): return .real(value.timeIntervalSinceReferenceDate)
        case .array, .dictionary:
            var writer = TaggedWriter()
            writer.write(self)
            return .blob(Data(writer.bytes))
        }
    }

    /// Reads a stored value back; `nil` when the type and value do not fit together
    /// (a file edited by hand, or written by a newer version).
    init?(storageType: String, value: SQLValue) {
        switch (storageType, value) {
        case ("string", .text(let text)): self = .string(text)
        case ("integer", .integer(let integer)):
            guard let exact = Int(exactly: integer) else { return nil }
            self = .integer(exact)
        case ("double", .real(let real)): self = .double(real)
        case ("double", .integer(let integer)): self = .double(Double(integer))
        case ("bool", .integer(let integer)): self = .bool(integer != 0)
        case ("data", .blob(let data)): self = .data(data)
        case ("date", .real(let seconds)): self = .date(Date(timeIntervalSinceReferenceDate: seconds))
        case ("array", .blob(let bytes)), ("dictionary", .blob(let bytes)):
            var reader = TaggedReader(bytes: [UInt8](bytes))
            guard let decoded = reader.read(depth: 0), reader.isAtEnd, decoded.storageType == storageType else {
                return nil
            }
            self = decoded
        default:
            return nil
        }
    }
}

/// Tags of the container encoding; stored on disk, so never renumber them.
private enum Tag: UInt8 {
    case string = 1, integer, double, bool, data, date, array, dictionary
}

private struct TaggedWriter {
    var bytes: [UInt8] = []

    mutating func write(_ value: PropertyListValue) {
        switch value {
        case .string(let text):
            bytes.append(Tag.string.rawValue)
            writeBytes(Array(text.utf8))
        case .integer(let integer):
            bytes.append(Tag.integer.rawValue)
            writeWord(UInt64(bitPattern: Int64(integer)))
        case .double(let real):
            bytes.append(Tag.double.rawValue)
            writeWord(real.bitPattern)
        case .bool(let flag):
            bytes.append(Tag.bool.rawValue)
            bytes.append(flag ? 1 : 0)
        case .data(let data):
            bytes.append(Tag.data.rawValue)
            writeBytes([UInt8](data))
        case .date(let date):
            bytes.append(Tag.date.rawValue)
            writeWord(date.timeIntervalSinceReferenceDate.bitPattern)
        case .array(let elements):
            bytes.append(Tag.array.rawValue)
            writeWord(UInt64(elements.count))
            elements.forEach { write($0) }
        case .dictionary(let entries):
            bytes.append(Tag.dictionary.rawValue)
            writeWord(UInt64(entries.count))
            for key in entries.keys.sorted() {
                writeBytes(Array(key.utf8))
                write(entries[key]!)
            }
        }
    }

    private mutating func writeWord(_ word: UInt64) {
        withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func writeBytes(_ payload: [UInt8]) {
        writeWord(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }
}

/// Decodes the tagged encoding, refusing truncated or malformed input instead of trapping.
private struct TaggedReader {
    /// Deeper nesting than this is refused, so a hostile blob cannot overflow the stack.
    static let maximumDepth = 512
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    mutating func read(depth: Int) -> PropertyListValue? {
        guard depth < Self.maximumDepth, offset < bytes.count, let tag = Tag(rawValue: bytes[offset]) else { return nil }
        offset += 1
        switch tag {
        case .string:
            return readBytes().map { .string(String(decoding: $0, as: UTF8.self)) }
        case .integer:
            return readWord().map { .integer(Int(Int64(bitPattern: $0))) }
        case .double:
            return readWord().map { .double(Double(bitPattern: $0)) }
        case .bool:
            guard offset < bytes.count, bytes[offset] <= 1 else { return nil }
            offset += 1
            return .bool(bytes[offset - 1] == 1)
        case .data:
            return readBytes().map { .data(Data($0)) }
        case .date:
            return readWord().map { .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: $0))) }
        case .array:
            guard let count = readCount() else { return nil }
            var elements: [PropertyListValue] = []
            for _ in 0..<count {
                guard let element = read(depth: depth + 1) else { return nil }
                elements.append(element)
            }
            return .array(elements)
        case .dictionary:
            guard let count = readCount() else { return nil }
            var entries: [String: PropertyListValue] = [:]
            for _ in 0..<count {
                guard let key = readBytes(), let element = read(depth: depth + 1) else { return nil }
                entries[String(decoding: key, as: UTF8.self)] = element
            }
            return .dictionary(entries)
        }
    }

    private mutating func readWord() -> UInt64? {
        guard bytes.count - offset >= 8 else { return nil }
        var word: UInt64 = 0
        for index in (0..<8).reversed() { word = word << 8 | UInt64(bytes[offset + index]) }
        offset += 8
        return word
    }

    /// An element count, bounded by the bytes left (each element takes at least one byte).
    private mutating func readCount() -> Int? {
        guard let word = readWord(), word <= UInt64(bytes.count - offset) else { return nil }
        return Int(word)
    }

    private mutating func readBytes() -> ArraySlice<UInt8>? {
        guard let count = readCount() else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }
}
