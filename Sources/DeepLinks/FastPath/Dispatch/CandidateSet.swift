import CPCRE2

/// The routes a subject with a given dispatch key could match, in table order, compiled into
/// chunks: each chunk is one anchored alternation `(?:p0)\z(*:0)|(?:p1)\z(*:1)|...` whose
/// `(*MARK)` names the alternative that matched.
///
/// Dispatch has already compared the subject's start with the set's key, so a chunk leaves out the
/// literal text all its routes share with the key and starts matching after it: alternatives do
/// not each compare the same `https://myapp.example.com/task/` again.
final class CandidateSet: Sendable {
    /// One compiled alternation over consecutive candidates.
    struct Chunk: Sendable {
        let pattern: CompiledPattern
        /// Route order per alternative.
        let routes: [Int]
        /// For each alternative, the number of capture groups before its first one.
        let groupBases: [Int]
        /// The subject offset matching starts at: the key bytes the alternatives leave out.
        let start: Int
    }

    /// A readable name of the key this set serves (`myapp://task/*`), for explanations.
    let label: String
    /// The bytes every subject dispatched to this set starts with (empty for the set of unkeyed routes).
    let key: [UInt8]
    /// Route orders, ascending.
    let routes: [Int]
    let chunks: [Chunk]
    /// The most ovector pairs any chunk needs.
    let ovectorPairs: Int

    /// The set's one route, when it has exactly one (its own pattern then decides); `.notAlone` otherwise.
    var loneRoute: LoneRoute { routes.count == 1 ? LoneRoute(order: routes[0]) : .notAlone }

    /// Compiles `routes` (orders, ascending) into chunks of at most `maxPerChunk` alternatives,
    /// splitting further when PCRE2 reports the compiled pattern would be too large.
    /// - Parameter key: bytes every subject dispatched to this set starts with (empty for none).
    init(label: String, key: [UInt8], routes: [Int], table: [Route], maxPerChunk: Int) throws(PCRE2Error) {
        self.label = label
        self.key = key
        self.routes = routes
        var chunks: [Chunk] = []
        var start = 0
        while start < routes.count {
            var size = min(maxPerChunk, routes.count - start)
            while true {
                do {
                    chunks.append(try CandidateSet.compileChunk(Array(routes[start..<(start + size)]), key: key, table: table))
                    break
                } catch where error.code == .patternTooLarge && size > 1 {
                    size /= 2
                }
            }
            start += size
        }
        self.chunks = chunks
        self.ovectorPairs = (chunks.map(\.pattern.captureCount).max() ?? 0) + 1
    }

    private static func compileChunk(_ orders: [Int], key: [UInt8], table: [Route]) throws(PCRE2Error) -> Chunk {
        // The key bytes every route of the chunk starts with literally, if each pattern can drop them.
        var shared = key.count
        for order in orders {
            let prefix = PatternScanner.literalPrefix(table[order].definition.pattern).prefix
            shared = min(shared, zip(prefix, key).prefix { $0 == $1 }.count)
        }
        var patterns = orders.map { table[$0].definition.pattern }
        if shared > 0 {
            let dropped = patterns.compactMap { PatternScanner.droppingLiteralPrefix($0, byteCount: shared) }
            if dropped.count == patterns.count { patterns = dropped } else { shared = 0 }
        }
        var source = ""
        var bases: [Int] = []
        var groups = 0
        for (alternative, order) in orders.enumerated() {
            if alternative > 0 { source += "|" }
            source += "(?:\(patterns[alternative]))\\z(*:\(alternative))"
            bases.append(groups)
            groups += table[order].groupNames.count
        }
        // Different routes may name their groups alike; group numbers tell them apart.
        let pattern = try CompiledPattern(source, options: CompiledPattern.routeOptions | PCRE2_DUPNAMES)
        return Chunk(pattern: pattern, routes: orders, groupBases: bases, start: shared)
    }
}
