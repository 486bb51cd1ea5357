import CPCRE2

/// The routes a subject with a given dispatch key could match, in table order, compiled into
/// chunks: each chunk is one anchored alternation `(?:p0)\z(*:0)|(?:p1)\z(*:1)|...` whose
/// `(*MARK)` names the alternative that matched.
final class CandidateSet: Sendable {
    /// One compiled alternation over consecutive candidates.
    struct Chunk: Sendable {
        let pattern: CompiledPattern
        /// Route order per alternative.
        let routes: [Int]
        /// For each alternative, the number of capture groups before its first one.
        let groupBases: [Int]
    }

    /// A readable name of the key this set serves (`myapp://task/*`).
    let label: String
    /// Route orders, ascending.
    let routes: [Int]
    let chunks: [Chunk]
    /// The most ovector pairs any chunk needs.
    let ovectorPairs: Int

    /// Compiles `routes` (orders, ascending) into chunks of at most `maxPerChunk` alternatives,
    /// splitting further when PCRE2 reports the compiled pattern would be too large.
    init(label: String, routes: [Int], table: [Route], maxPerChunk: Int) throws(PCRE2Error) {
        self.label = label
        self.routes = routes
        var chunks: [Chunk] = []
        var start = 0
        while start < routes.count {
            var size = min(maxPerChunk, routes.count - start)
            while true {
                do {
                    chunks.append(try CandidateSet.compileChunk(Array(routes[start..<(start + size)]), table: table))
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

    private static func compileChunk(_ orders: [Int], table: [Route]) throws(PCRE2Error) -> Chunk {
        var source = ""
        var bases: [Int] = []
        var groups = 0
        for (alternative, order) in orders.enumerated() {
            let route = table[order]
            if alternative > 0 { source += "|" }
            source += "(?:\(route.definition.pattern))\\z(*:\(alternative))"
            bases.append(groups)
            groups += route.groupNames.count
        }
        // Different routes may name their groups alike; group numbers tell them apart.
        let pattern = try CompiledPattern(source, options: CompiledPattern.routeOptions | PCRE2_DUPNAMES)
        return Chunk(pattern: pattern, routes: orders, groupBases: bases)
    }
}
