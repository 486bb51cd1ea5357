/// The part of a `RouteTable` that every match reads, laid out as plain values in buffers, so the
/// hot loop follows no references and counts none.
///
/// Everything here is derived from the table's candidate sets and routes, which own the compiled
/// patterns (and keep them alive as long as the table, and so this plan, exists).
final class MatchPlan: @unchecked Sendable {
    // @unchecked Sendable: the buffers are written only in init and freed in deinit; the PCRE2 code
    // pointers belong to `CompiledPattern`s kept alive by `patterns`, and JIT-compiled code is
    // read-only and shareable (see `CompiledPattern`).

    /// One compiled alternation of a candidate set.
    struct Chunk {
        let code: OpaquePointer
        let isJITCompiled: Bool
        /// The subject offset to start matching at (see `CandidateSet`).
        let start: Int
        /// Index of the chunk's first alternative in `alternatives`.
        let firstAlternative: Int32
    }

    /// One alternative of a chunk: the route it stands for, and where its groups start.
    struct Alternative {
        let route: Int32
        let groupBase: Int32
    }

    /// What matching needs of a route.
    struct RouteInfo {
        let groupCount: Int32
        /// Whether query rules, sources or families must be checked once the pattern matches.
        let checksAfterPattern: Bool
    }

    /// Every candidate set's chunks, back to back.
    let chunks: UnsafeMutableBufferPointer<Chunk>
    /// Candidate set `i` has chunks `setStarts[i]..<setStarts[i + 1]`.
    let setStarts: UnsafeMutableBufferPointer<Int32>
    /// The number of routes of each candidate set.
    let setSizes: UnsafeMutableBufferPointer<Int32>
    let alternatives: UnsafeMutableBufferPointer<Alternative>
    /// By route order.
    let routes: UnsafeMutableBufferPointer<RouteInfo>
    private let patterns: [CompiledPattern]

    init(candidateSets: [CandidateSet], routes: [Route]) {
        var chunks: [Chunk] = []
        var setStarts: [Int32] = []
        var alternatives: [Alternative] = []
        var patterns: [CompiledPattern] = []
        for set in candidateSets {
            setStarts.append(Int32(chunks.count))
            for chunk in set.chunks {
                chunks.append(Chunk(code: chunk.pattern.code, isJITCompiled: chunk.pattern.isJITCompiled, start: chunk.start,
                                    firstAlternative: Int32(alternatives.count)))
                patterns.append(chunk.pattern)
                for (order, base) in zip(chunk.routes, chunk.groupBases) {
                    alternatives.append(Alternative(route: Int32(order), groupBase: Int32(base)))
                }
            }
        }
        setStarts.append(Int32(chunks.count))
        let infos = routes.map { route in
            let definition = route.definition
            return RouteInfo(groupCount: Int32(route.groupNames.count),
                             checksAfterPattern: !definition.queryRules.isEmpty || !definition.sources.isEmpty || !definition.families.isEmpty)
        }
        self.chunks = Self.copy(chunks)
        self.setStarts = Self.copy(setStarts)
        self.setSizes = Self.copy(candidateSets.map { Int32($0.routes.count) })
        self.alternatives = Self.copy(alternatives)
        self.routes = Self.copy(infos)
        self.patterns = patterns
    }

    deinit {
        chunks.deallocate()
        setStarts.deallocate()
        setSizes.deallocate()
        alternatives.deallocate()
        routes.deallocate()
    }

    private static func copy<Element>(_ elements: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(elements.count, 1))
        _ = buffer.initialize(from: elements)
        return buffer
    }
}
