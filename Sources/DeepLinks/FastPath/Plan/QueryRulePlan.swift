import CPCRE2

/// A route's query rules laid out in flat buffers for matching: checking a URL's query follows no
/// array of arrays and counts no references (reading a `[QueryCheck]` element copied its arrays).
///
/// Built once from the route's `QueryCheck`s, which own the compiled value patterns (and keep
/// them alive as long as the route, and so this plan, exists).
final class QueryRulePlan: @unchecked Sendable {
    // @unchecked Sendable: the buffers are written only in init and freed in deinit; the PCRE2 code
    // pointers belong to `CompiledPattern`s kept alive by `checks`, and compiled code is read-only.

    struct Rule {
        /// The name's UTF-8 in `bytes`.
        let nameStart: Int32
        let nameLength: Int32
        let isRequired: Bool
        let isRepeated: Bool
        /// Whether the name is ASCII without `%` or `+`, so that an item name equals it when the
        /// bytes are equal, and otherwise only if it has a `%` or `+` to decode.
        let nameIsPlain: Bool
        /// `words[firstWord..<(firstWord + wordCount)]` when the value pattern is a choice of plain
        /// words; `wordCount` is `notWords` otherwise.
        let firstWord: Int32
        let wordCount: Int32
        /// The value pattern, when it must run (no words); nil when any value is accepted.
        let pattern: OpaquePointer?
        let isJITCompiled: Bool

        /// `wordCount` of a rule whose value pattern is not a choice of plain words.
        static let notWords: Int32 = -1

        /// Whether values are compared with the words instead of running the pattern.
        var comparesWords: Bool { wordCount >= 0 }

        /// Whether values are checked at all (by words or by the pattern).
        var checksValues: Bool { comparesWords || pattern != nil }
    }

    struct Word {
        let start: Int32
        let length: Int32
    }

    let rules: UnsafeMutableBufferPointer<Rule>
    private let words: UnsafeMutableBufferPointer<Word>
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    /// What the plan was built from, which keeps the compiled value patterns alive.
    let checks: [QueryCheck]

    init(_ checks: [QueryCheck]) {
        var bytes: [UInt8] = []
        var words: [Word] = []
        var rules: [Rule] = []
        for check in checks {
            let nameStart = Int32(bytes.count)
            bytes += check.name
            let firstWord = Int32(words.count)
            for word in check.valueWords ?? [] {
                words.append(Word(start: Int32(bytes.count), length: Int32(word.count)))
                bytes += word
            }
            let runsPattern = check.valueWords == nil ? check.valuePattern : nil
            rules.append(Rule(nameStart: nameStart, nameLength: Int32(check.name.count), isRequired: check.isRequired,
                              isRepeated: check.isRepeated, nameIsPlain: check.name.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "%") && $0 != UInt8(ascii: "+") },
                              firstWord: firstWord, wordCount: check.valueWords.map { Int32($0.count) } ?? Rule.notWords,
                              pattern: runsPattern?.code, isJITCompiled: runsPattern?.isJITCompiled ?? false))
        }
        self.checks = checks
        self.rules = .copying(rules)
        self.words = .copying(words)
        self.bytes = .copying(bytes)
    }

    deinit {
        rules.deallocate()
        words.deallocate()
        bytes.deallocate()
    }

    /// Whether the item name at `range` of a validated query is rule `index`'s name.
    @inline(__always)
    func nameMatches(_ index: Int, _ url: UnsafePointer<UInt8>, _ range: Range<Int>) -> Bool {
        let rule = rules[index]
        let name = UnsafeBufferPointer(start: bytes.baseAddress! + Int(rule.nameStart), count: Int(rule.nameLength))
        if rule.nameIsPlain {
            // Equal bytes decode alike. Other bytes can equal the name only through an escape, a `+`,
            // or a non-ASCII character canonically equivalent to an ASCII one (the Kelvin sign is `K`
            // to Swift's string comparison, which names are compared by); without any, they cannot.
            if range.count == name.count, WordScan.equal(name.baseAddress!, url + range.lowerBound, count: name.count) { return true }
            if WordScan.firstIndex(ofNonASCIIOr: UInt8(ascii: "%"), or: UInt8(ascii: "+"), in: url, from: range.lowerBound,
                                   to: range.upperBound) == range.upperBound {
                return false
            }
        }
        return QueryParser.nameEquals(UnsafeBufferPointer(start: url, count: range.upperBound), range, name)
    }

    /// Whether a decoded value satisfies rule `index`'s value pattern (PCRE2's answer; words are
    /// compared as bytes, see `PatternScanner.literalAlternatives`).
    @inline(__always)
    func accepts(_ index: Int, _ value: UnsafeBufferPointer<UInt8>, scratch: MatchScratch, limits: MatchLimits) -> Bool {
        let rule = rules[index]
        if rule.comparesWords {
            for word in words[Int(rule.firstWord)..<Int(rule.firstWord + rule.wordCount)] where Int(word.length) == value.count {
                if value.isEmpty || WordScan.equal(bytes.baseAddress! + Int(word.start), value.baseAddress!, count: value.count) { return true }
            }
            return false
        }
        guard let pattern = rule.pattern else { return true }
        let rc = rule.isJITCompiled
            ? pcre2_jit_match_8(pattern, value.baseAddress, value.count, 0, 0, scratch.matchData, limits.context)
            : pcre2_match_8(pattern, value.baseAddress, value.count, 0, 0, scratch.matchData, limits.context)
        return rc > 0
    }
}
