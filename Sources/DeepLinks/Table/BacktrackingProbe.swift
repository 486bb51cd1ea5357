import CPCRE2

/// Probes a route's pattern for catastrophic backtracking before the table is used.
///
/// Each probe is the pattern's literal prefix followed by a long run of one filler (`a`, `0`, `a/`,
/// `%2F`...) and then a terminator that rarely matches, at the longest lengths the canonicalizer
/// lets through (a segment is at most `maxParameterLength` bytes, a URL `maxURLLength`). A pattern
/// that needs more than the table's match limit on any probe is refused: the same input would
/// make every real match fail with `PCRE2_ERROR_MATCHLIMIT`, and take long doing so.
struct BacktrackingProbe {
    let canonicalizer: URLCanonicalizer

    private static let segmentFillers = ["a", "0", "-", ".", "_", "a0", "é", "%2F", "a-", "aa."]
    private static let pathFillers = ["/", "a/", "0/", "/a", "ab/", "a//"]
    private static let terminators = ["", "!", "\u{1}", "/!"]

    /// The first probe input that exceeds the match limit, described for a diagnostic, or nil.
    func failingInput(for route: Route, limits: MatchLimits) -> String? {
        let prefix = String(decoding: PatternScanner.literalPrefix(route.definition.pattern).prefix, as: UTF8.self)
        let budget = max(0, canonicalizer.maxURLLength - prefix.utf8.count - 8)
        for (fillers, limit) in [(Self.segmentFillers, canonicalizer.maxParameterLength), (Self.pathFillers, budget)] {
            for filler in fillers {
                let repeats = max(1, min(limit, budget) / filler.utf8.count)
                let body = String(repeating: filler, count: repeats)
                for terminator in Self.terminators {
                    let rc = route.pattern.matches(prefix + body + terminator, context: limits)
                    if rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT {
                        let shown = filler.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? String($0) : $0.escaped(asASCII: true) }.joined()
                        let end = terminator.unicodeScalars.map { $0.value >= 0x20 ? String($0) : $0.escaped(asASCII: true) }.joined()
                        return "\"\(prefix)\" + \(repeats) × \"\(shown)\"" + (end.isEmpty ? "" : " + \"\(end)\"")
                    }
                }
            }
        }
        return nil
    }
}
