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

    @Test("item names agree with decoding them", arguments: ["source", "x", "a+b", "50%", "caf\u{E9}", "a-longer_name.1"])
    func itemNames(name: String) throws {
        let plan = QueryRulePlan([QueryCheck(name: Array(name.utf8), isRequired: false, isRepeated: false, valuePattern: nil,
                                             valueWords: nil)])
        let items = ["source", "sourc%65", "%73ource", "sourcE", "sourc", "sources", "x", "%78", "X", "a+b", "a%2Bb", "a b",
                     "a%20b", "50%25", "50%", "caf%C3%A9", "caf\u{E9}", "cafe\u{301}", "a-longer_name.1", "a-longer_name.2",
                     "a-longer%5Fname.1", "", "+", "%2B"]
        for item in items {
            var url = Array("myapp://q?".utf8) + Array(item.utf8)
            let range = 10..<url.count
            let expected = url.withUnsafeBufferPointer { bytes in
                name.utf8.withContiguousStorageIfAvailable { QueryParser.nameEquals(bytes, range, $0) }!
            }
            let answer = url.withUnsafeMutableBufferPointer { plan.nameMatches(0, UnsafePointer($0.baseAddress!), range) }
            #expect(answer == expected || (item.isEmpty && name.isEmpty), "\(name) against item \(item.debugDescription)")
        }
    }
}
