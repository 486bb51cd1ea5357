extension PatternScanner {
    /// The words of a pattern that is only a choice between plain words, such as
    /// `(homescreen|lockscreen|stack)`, `(?:a|b)` or `stack`; nil for any other pattern.
    ///
    /// Matched anchored at both ends, such a pattern accepts exactly the listed words, so a
    /// query value can be checked by comparing bytes instead of running PCRE2. Words are letters,
    /// digits, `-` and `_` (no metacharacters, escapes or options, so nothing can change their meaning).
    static func literalAlternatives(_ pattern: String) -> [[UInt8]]? {
        var bytes = Array(pattern.utf8)
        if bytes.starts(with: Array("(?:".utf8)), bytes.last == UInt8(ascii: ")") {
            bytes = Array(bytes[3..<(bytes.count - 1)])
        } else if bytes.first == UInt8(ascii: "("), bytes.last == UInt8(ascii: ")") {
            bytes = Array(bytes[1..<(bytes.count - 1)])
        }
        let words = bytes.split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false).map(Array.init)
        guard words.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isWordByte) }) else { return nil }
        return words
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }
}
