import CPCRE2
import Testing
@testable import DeepLinks

/// Value patterns that only choose between plain words are checked by comparing bytes; the
/// answer must be PCRE2's for the same pattern, anchored at both ends.
@Suite("Query value words")
struct QueryValueWordsTests {
    static let scanned: [(String, [String]?)] = [
        ("(homescreen|lockscreen|stack)", ["homescreen", "lockscreen", "stack"]),
        ("(?:a|b-c|d_e)", ["a", "b-c", "d_e"]),
        ("stack", ["stack"]),
        ("a|b", ["a", "b"]),
        ("(a|)", nil),           // an empty word: left to PCRE2
        ("(a)(b)", nil),
        ("(a|b)|(c)", nil),
        ("[0-9]+", nil),
        ("(?i)stack", nil),
        ("a.b", nil),
        ("(?<x>a|b)", nil),
        ("caf\u{E9}", nil),
    ]

    @Test("scanning", arguments: scanned)
    func scanning(pattern: String, words: [String]?) {
        #expect(PatternScanner.literalAlternatives(pattern) == words.map { $0.map { Array($0.utf8) } })
    }

    @Test("words agree with PCRE2", arguments: ["(homescreen|lockscreen|stack)", "(?:a|ab|abc)", "x-y", "(b|a)"])
    func agreement(pattern: String) throws {
        let words = try #require(PatternScanner.literalAlternatives(pattern))
        let compiled = try CompiledPattern(pattern, options: CompiledPattern.routeOptions | PCRE2_ENDANCHORED)
        let plan = QueryRulePlan([QueryCheck(name: [], isRequired: false, isRepeated: false, valuePattern: compiled, valueWords: words)])
        let limits = MatchLimits(matchLimit: 100_000)
        for value in ["", "a", "ab", "abc", "abcd", "b", "ba", "stack", "stacks", "Stack", "homescreen", "lockscreen",
                      "lock", "x-y", "x-", "xy", " a", "a "] {
            let expected = compiled.matches(value, context: limits) > 0
            var bytes = Array(value.utf8)
            let scratch = MatchScratch.current(minimumPairs: 1)
            let answer = bytes.withUnsafeMutableBufferPointer { plan.accepts(0, UnsafeBufferPointer($0), scratch: scratch, limits: limits) }
            #expect(answer == expected, "\(pattern) on \(value.debugDescription)")
        }
    }
}
