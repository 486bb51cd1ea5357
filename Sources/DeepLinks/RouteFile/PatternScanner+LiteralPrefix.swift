/// Literal prefixes of patterns: what dispatch keys are made of, and what chunks leave out.
extension PatternScanner {
    /// The bytes every subject matching `pattern` starts with, and whether that is the whole pattern.
    static func literalPrefix(_ pattern: String) -> (prefix: [UInt8], isWholePattern: Bool) {
        let scan = scanLiteralPrefix(Array(pattern.utf8))
        return (scan.prefix, scan.isWholePattern)
    }

    /// The literal prefix of `bytes`, and the offset in `bytes` where it ends (nil with a top-level
    /// alternation, where no prefix is known).
    static func scanLiteralPrefix(_ bytes: [UInt8]) -> (prefix: [UInt8], isWholePattern: Bool, end: Int?) {
        if hasTopLevelAlternation(bytes) { return ([], false, nil) }
        var prefix: [UInt8] = []
        var index = 0
        if bytes.first == UInt8(ascii: "^") { index = 1 }
        while index < bytes.count {
            let byte = bytes[index]
            var literal: [UInt8]
            var next: Int
            if byte == UInt8(ascii: "\\") {
                guard index + 1 < bytes.count, !isAlphanumeric(bytes[index + 1]), bytes[index + 1] < 0x80 else {
                    return (prefix, false, index)
                }
                literal = [bytes[index + 1]]
                next = index + 2
            } else if metacharacters.contains(byte) {
                let isFinalDollar = byte == UInt8(ascii: "$") && index == bytes.count - 1
                return (prefix, isFinalDollar, index)
            } else {
                next = index + utf8Length(byte)
                literal = Array(bytes[index..<min(next, bytes.count)])
            }
            if next < bytes.count, quantifiers.contains(bytes[next]) { return (prefix, false, index) }
            prefix += literal
            index = next
        }
        return (prefix, true, index)
    }

    /// `pattern` without its first `byteCount` literal-prefix bytes (and a leading `^`), to match
    /// from offset `byteCount` of subjects known to start with those bytes; nil when the literal
    /// prefix is shorter or `byteCount` does not end at one of its characters.
    static func droppingLiteralPrefix(_ pattern: String, byteCount: Int) -> String? {
        let bytes = Array(pattern.utf8)
        if hasTopLevelAlternation(bytes) { return nil }
        // `\G` asserts the start offset, which moves when the prefix is dropped.
        var assertsStart = false
        forEachStructuralByte(bytes) { index, escaped in
            if escaped, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "G") { assertsStart = true }
        }
        if assertsStart { return nil }
        var consumed = 0
        var index = bytes.first == UInt8(ascii: "^") ? 1 : 0
        while consumed < byteCount {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            let length: Int
            let next: Int
            if byte == UInt8(ascii: "\\") {
                guard index + 1 < bytes.count, !isAlphanumeric(bytes[index + 1]), bytes[index + 1] < 0x80 else { return nil }
                length = 1
                next = index + 2
            } else if metacharacters.contains(byte) {
                return nil
            } else {
                next = min(index + utf8Length(byte), bytes.count)
                length = next - index
            }
            if next < bytes.count, quantifiers.contains(bytes[next]) { return nil }
            consumed += length
            index = next
        }
        guard consumed == byteCount else { return nil }
        return String(decoding: bytes[index...], as: UTF8.self)
    }
}
