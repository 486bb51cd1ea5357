/// The bytes a pattern can continue with after its literal prefix: what tells `myapp://res0/42` from
/// `myapp://res0/new` without running either pattern.
extension PatternScanner {
    /// The ASCII bytes the subject byte right after `pattern`'s literal prefix can be, or nil when
    /// that is unknown: the prefix is the whole pattern, the next part may be empty or may start
    /// with a non-ASCII character, or it is a construct the scanner does not follow.
    ///
    /// Understood: a literal byte, `\d`, a positive class of plain bytes, ranges and `\d`, and
    /// groups `(...)`, `(?:...)`, `(?<name>...)` without alternation whose first such atom is
    /// there at least once, each with no quantifier or `+` or `{n...}` with n ≥ 1.
    static func firstBytesAfterLiteralPrefix(_ pattern: String) -> ByteSet? {
        let bytes = Array(pattern.utf8)
        let scan = scanLiteralPrefix(bytes)
        guard !scan.isWholePattern, let end = scan.end, end < bytes.count else { return nil }
        return firstBytes(bytes, at: end)?.set
    }

    /// The first bytes of the atom at `start`, when it matches at least one byte, and where the
    /// atom (without its quantifier) ends.
    private static func firstBytes(_ bytes: [UInt8], at start: Int) -> (set: ByteSet, end: Int)? {
        var set = ByteSet()
        let end: Int
        let byte = bytes[start]
        switch byte {
        case UInt8(ascii: "["):
            guard let (found, after) = classFirstBytes(bytes, at: start) else { return nil }
            (set, end) = (found, after)
        case UInt8(ascii: "\\"):
            guard start + 1 < bytes.count else { return nil }
            let escaped = bytes[start + 1]
            if escaped == UInt8(ascii: "d") {
                insertDigits(&set)
            } else if escaped < 0x80, !isAlphanumeric(escaped) {
                set.insert(escaped)
            } else {
                return nil
            }
            end = start + 2
        case UInt8(ascii: "("):
            guard let close = matchingParenthesis(bytes, from: start), let inner = groupBodyStart(bytes, at: start) else { return nil }
            let body = Array(bytes[inner..<close])
            guard !body.isEmpty, !hasTopLevelAlternation(body), let (found, _) = firstBytes(body, at: 0) else { return nil }
            (set, end) = (found, close + 1)
        default:
            guard byte < 0x80, !metacharacters.contains(byte), byte != UInt8(ascii: ")") else { return nil }
            set.insert(byte)
            end = start + 1
        }
        // The atom must be there at least once.
        if end < bytes.count {
            let quantifier = bytes[end]
            if quantifier == UInt8(ascii: "?") || quantifier == UInt8(ascii: "*") { return nil }
            if quantifier == UInt8(ascii: "{") {
                guard end + 1 < bytes.count, bytes[end + 1] >= UInt8(ascii: "1"), bytes[end + 1] <= UInt8(ascii: "9") else { return nil }
            }
        }
        return (set, end)
    }

    /// Where the body of a plain, non-capturing or named group opening at `open` starts.
    private static func groupBodyStart(_ bytes: [UInt8], at open: Int) -> Int? {
        guard open + 1 < bytes.count else { return nil }
        if bytes[open + 1] != UInt8(ascii: "?") { return bytes[open + 1] == UInt8(ascii: "*") ? nil : open + 1 }
        if open + 2 < bytes.count, bytes[open + 2] == UInt8(ascii: ":") { return open + 3 }
        return namedGroupOpening(bytes, at: open)?.2
    }

    /// The bytes a positive class of plain ASCII bytes, ranges, escaped punctuation and `\d` matches,
    /// and the offset after it; nil for anything else.
    private static func classFirstBytes(_ bytes: [UInt8], at open: Int) -> (ByteSet, Int)? {
        var index = open + 1
        guard index < bytes.count, bytes[index] != UInt8(ascii: "^"), bytes[index] != UInt8(ascii: "]") else { return nil }
        var set = ByteSet()
        while index < bytes.count {
            var low = bytes[index]
            if low == UInt8(ascii: "]") { return (set, index + 1) }
            guard low != UInt8(ascii: "["), low < 0x80 else { return nil }
            if low == UInt8(ascii: "\\") {
                guard index + 1 < bytes.count else { return nil }
                let escaped = bytes[index + 1]
                index += 2
                if escaped == UInt8(ascii: "d") { insertDigits(&set); continue }
                guard escaped < 0x80, !isAlphanumeric(escaped) else { return nil }
                low = escaped
            } else {
                index += 1
            }
            if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "-"), bytes[index + 1] != UInt8(ascii: "]") {
                let high = bytes[index + 1]
                guard high != UInt8(ascii: "\\"), high != UInt8(ascii: "["), high < 0x80, high >= low else { return nil }
                for member in low...high { set.insert(member) }
                index += 2
            } else {
                set.insert(low)
            }
        }
        return nil
    }

    private static func insertDigits(_ set: inout ByteSet) {
        for digit in UInt8(ascii: "0")...UInt8(ascii: "9") { set.insert(digit) }
    }
}
