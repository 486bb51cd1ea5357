/// Validates and parses query strings (see rule 6 of `URLCanonicalizer`).
///
/// Canonicalization only validates (no allocation); the items are decoded when first asked for.
enum QueryParser {
    /// Checks every item's escapes, UTF-8 and decoded length.
    static func validate(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, maxLength: Int) throws(CanonicalizationFailure) {
        try forEachItem(bytes, from: start, to: end) { (name: Range<Int>, value: Range<Int>) throws(CanonicalizationFailure) in
            for range in [name, value] {
                let decoded = try validateComponent(bytes, range)
                if decoded > maxLength { throw .parameterTooLong(length: decoded, limit: maxLength) }
            }
        }
    }

    /// Decodes the items of a query already validated.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> [QueryItem] {
        var items: [QueryItem] = []
        forEachItem(bytes, from: start, to: end) { name, value in
            guard !name.isEmpty,
                  let decodedName = try? PercentEncoding.decode(UnsafeBufferPointer(rebasing: bytes[name]), plusIsSpace: true),
                  let decodedValue = try? PercentEncoding.decode(UnsafeBufferPointer(rebasing: bytes[value]), plusIsSpace: true)
            else { return }
            items.append(QueryItem(name: decodedName, value: decodedValue))
        }
        return items
    }

    /// The decoded values of the items named `name` (only the first when `first`), decoding no
    /// other value.
    static func values(named name: String, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, first: Bool) -> [String] {
        var values: [String] = []
        var name = name
        name.withUTF8 { wanted in
            forEachItem(bytes, from: start, to: end) { nameRange, valueRange in
                guard !(first && !values.isEmpty), nameEquals(bytes, nameRange, wanted),
                      let value = try? PercentEncoding.decode(UnsafeBufferPointer(rebasing: bytes[valueRange]), plusIsSpace: true)
                else { return }
                values.append(value)
            }
        }
        return values
    }

    /// Whether the item name at `range` of a validated query decodes to `wanted` (compared as Swift
    /// strings are, so canonically equivalent Unicode names are equal).
    @inline(__always)
    static func nameEquals(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !range.isEmpty else { return false }
        var plain = true
        for offset in range {
            let byte = bytes[offset]
            if byte >= 0x80 || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "+") { plain = false; break }
        }
        if plain, !wanted.contains(where: { $0 >= 0x80 }) {
            // ASCII on both sides: equal strings are equal bytes.
            return range.count == wanted.count && zip(bytes[range], wanted).allSatisfy { $0 == $1 }
        }
        guard let decoded = try? PercentEncoding.decode(UnsafeBufferPointer(rebasing: bytes[range]), plusIsSpace: true) else { return false }
        return decoded == String(decoding: wanted, as: UTF8.self)
    }

    /// Calls `body` with the name and value byte ranges of each non-empty item.
    static func forEachItem<E: Error>(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
                                              _ body: (Range<Int>, Range<Int>) throws(E) -> Void) throws(E) {
        var itemStart = start
        while itemStart < end {
            var itemEnd = itemStart
            while itemEnd < end, bytes[itemEnd] != UInt8(ascii: "&") { itemEnd += 1 }
            if itemEnd > itemStart {
                var equals = itemStart
                while equals < itemEnd, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                try body(itemStart..<equals, min(equals + 1, itemEnd)..<itemEnd)
            }
            itemStart = itemEnd + 1
        }
    }

    /// Checks one component's escapes and decoded UTF-8 without allocating; returns its decoded length.
    private static func validateComponent(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(CanonicalizationFailure) -> Int {
        var needsDecoding = false
        for offset in range where bytes[offset] == UInt8(ascii: "%") { needsDecoding = true; break }
        guard needsDecoding else { return range.count }  // from a Swift String: already UTF-8
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(range.count, 1)) { buffer throws(CanonicalizationFailure) in
            var length = 0
            var offset = range.lowerBound
            while offset < range.upperBound {
                var byte = bytes[offset]
                if byte == UInt8(ascii: "%") {
                    guard offset + 2 < range.upperBound, let high = PercentEncoding.hexValue(bytes[offset + 1]),
                          let low = PercentEncoding.hexValue(bytes[offset + 2])
                    else { throw .invalidPercentEncoding(offset: offset) }
                    byte = high << 4 | low
                    offset += 3
                } else {
                    offset += 1
                }
                buffer[length] = byte
                length += 1
            }
            guard URLBytes.isValidUTF8(UnsafeBufferPointer(rebasing: buffer[0..<length])) else {
                throw .invalidUTF8(offset: range.lowerBound)
            }
            return length
        }
    }
}
