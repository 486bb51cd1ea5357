import CPCRE2

/// Probes a route's pattern for catastrophic backtracking before the table is used.
///
/// Each probe is the pattern's literal prefix followed by a long run of one filler (`a`, `0`, `a/`,
/// `%2F`...) and then a terminator that rarely matches, at the longest lengths the canonicalizer
/// lets through (a segment is at most `maxParameterLength` bytes, a URL `maxURLLength`). A pattern
/// that needs more than the table's match limit on any probe is refused: the same input would
/// make every real match fail with `PCRE2_ERROR_MATCHLIMIT`, and take long doing so.
struct BacktrackingProbe {
    private struct Body {
        let filler: String
        let repeats: Int
        let bytes: [UInt8]
    }

    private static let segmentFillers = ["a", "0", "-", ".", "_", "a0", "é", "%2F", "a-", "aa."]
    private static let pathFillers = ["/", "a/", "0/", "/a", "ab/", "a//"]
    private static let terminators: [[UInt8]] = [[], Array("!".utf8), [1], Array("/!".utf8)]

    private let bodies: [Body]
    private let maxURLLength: Int

    /// Prepares the probe bodies once for all routes of a table.
    init(canonicalizer: URLCanonicalizer) {
        maxURLLength = canonicalizer.maxURLLength
        var bodies: [Body] = []
        let pathBudget = max(1, canonicalizer.maxURLLength - 80)
        for (fillers, limit) in [(Self.segmentFillers, min(canonicalizer.maxParameterLength, pathBudget)), (Self.pathFillers, pathBudget)] {
            for filler in fillers {
                let repeats = max(1, limit / filler.utf8.count)
                var bytes: [UInt8] = []
                bytes.reserveCapacity(repeats * filler.utf8.count)
                for _ in 0..<repeats { bytes += filler.utf8 }
                bodies.append(Body(filler: filler, repeats: repeats, bytes: bytes))
            }
        }
        self.bodies = bodies
    }

    /// The first probe input that exceeds the match limit, described for a diagnostic, or nil.
    func failingInput(for route: Route, limits: MatchLimits) -> String? {
        let prefix = PatternScanner.literalPrefix(route.definition.pattern).prefix
        var input: [UInt8] = []
        input.reserveCapacity(prefix.count + maxURLLength + 8)
        let scratch = MatchScratch.current(minimumPairs: route.pattern.captureCount + 1)
        for body in bodies {
            for terminator in Self.terminators {
                input.removeAll(keepingCapacity: true)
                input += prefix
                input += body.bytes
                input += terminator
                let rc = input.withUnsafeBufferPointer { route.pattern.match($0, scratch: scratch, context: limits) }
                if rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT {
                    let end = terminator.map { $0 >= 0x20 ? String(UnicodeScalar($0)) : "\\u{\(String($0, radix: 16))}" }.joined()
                    return "\"\(String(decoding: prefix, as: UTF8.self))\" + \(body.repeats) × \"\(body.filler)\""
                        + (end.isEmpty ? "" : " + \"\(end)\"")
                }
            }
        }
        return nil
    }
}
