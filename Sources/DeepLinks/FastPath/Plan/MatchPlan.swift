import CPCRE2

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
        /// The route's own pattern, run when the sieve leaves it the only candidate.
        let code: OpaquePointer
        let isJITCompiled: Bool
        let groupCount: Int32
        /// Whether query rules, sources or families must be checked once the pattern matches.
        let checksAfterPattern: Bool
        /// The route itself, not retained: the table's `routes` keep it alive (for `RouteMatchView`).
        let route: Unmanaged<Route>
        /// For a pattern that is all literal text: where that text is in `literals`, and its length;
        /// `notLiteral` for other patterns. Such a route matches its text and nothing else, so
        /// comparing bytes decides it without running the pattern.
        let literalStart: Int32
        let literalLength: Int32

        /// `literalLength` of a pattern that is not all literal text (no text is this long).
        static let notLiteral: Int32 = -1

        /// Whether the pattern is all literal text, at `literalStart` in `literals`.
        var isLiteral: Bool { literalLength >= 0 }
    }

    /// Every candidate set's chunks, back to back.
    let chunks: UnsafeMutableBufferPointer<Chunk>
    /// Candidate set `i` has chunks `setStarts[i]..<setStarts[i + 1]`.
    let setStarts: UnsafeMutableBufferPointer<Int32>
    /// The number of routes of each candidate set.
    let setSizes: UnsafeMutableBufferPointer<Int32>
    /// The route of each candidate set of one route (its own pattern decides), `.notAlone` for the others.
    let loneRoutes: UnsafeMutableBufferPointer<LoneRoute>
    let alternatives: UnsafeMutableBufferPointer<Alternative>
    /// By route order.
    let routes: UnsafeMutableBufferPointer<RouteInfo>
    /// The text of the routes whose patterns are all literal, back to back.
    let literals: UnsafeMutableBufferPointer<UInt8>
    /// Finds a subject's dispatch key.
    let dispatch: DispatchIndex
    /// Finds the candidate set among the key's by the subject's number of `/`.
    let segmentCounts: SegmentCountIndex
    /// Narrows small candidate sets to the routes a subject could match.
    let sieve: CandidateSieve
    /// The table's match context (its match limit).
    let matchContext: OpaquePointer
    private let patterns: [CompiledPattern]
    private let limits: MatchLimits

    init(candidateSets: [CandidateSet], routes: [Route], dispatch: DispatchIndex, segmentCounts: SegmentCountIndex,
         limits: MatchLimits) {
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
        var literals: [UInt8] = []
        let infos = routes.map { route in
            let definition = route.definition
            let literal = route.start.isLiteral ? route.start.prefix : nil
            defer { if let literal { literals += literal } }
            return RouteInfo(code: route.pattern.code, isJITCompiled: route.pattern.isJITCompiled,
                             groupCount: Int32(route.groupNames.count),
                             checksAfterPattern: !definition.queryRules.isEmpty || !definition.sources.isEmpty || !definition.families.isEmpty,
                             route: .passUnretained(route), literalStart: Int32(literals.count),
                             literalLength: literal.map { Int32($0.count) } ?? RouteInfo.notLiteral)
        }
        self.literals = .copying(literals)
        self.chunks = .copying(chunks)
        self.setStarts = .copying(setStarts)
        self.setSizes = .copying(candidateSets.map { Int32($0.routes.count) })
        self.loneRoutes = .copying(candidateSets.map(\.loneRoute))
        self.alternatives = .copying(alternatives)
        self.routes = .copying(infos)
        self.patterns = patterns + routes.map(\.pattern)
        self.dispatch = dispatch
        self.segmentCounts = segmentCounts
        self.sieve = CandidateSieve(candidateSets: candidateSets, routes: routes)
        self.limits = limits
        self.matchContext = limits.context
    }

    deinit {
        chunks.deallocate()
        setStarts.deallocate()
        setSizes.deallocate()
        loneRoutes.deallocate()
        alternatives.deallocate()
        routes.deallocate()
        literals.deallocate()
    }

    /// What running a candidate set's chunks gave.
    enum Outcome {
        /// The first chunk that matched chose `route`, whose groups are at `captures`;
        /// `checksAfterPattern` says whether its query rules or tap constraints remain to check.
        case matched(route: Int, captures: CaptureSpans, checksAfterPattern: Bool)
        /// No chunk matched; the set has `candidates` routes.
        case noMatch(candidates: Int)
        /// PCRE2 failed with `code` in chunk `chunk` (counted within the set), or in the own pattern
        /// of `route` when `chunk` is nil.
        case failed(code: Int32, chunk: Int?, route: Int)
    }

    /// The candidate set of `subject`: its dispatch key's, for its number of `/`.
    @inline(__always)
    func candidateSet(for subject: UnsafeBufferPointer<UInt8>, layout: CanonicalLayout) -> Int {
        let key = dispatch.candidateSet(for: subject, schemeEnd: layout.schemeLength, pathStart: layout.pathStart,
                                        firstSegmentEnd: layout.firstSegmentEnd, hasAuthority: layout.hasAuthority)
        return segmentCounts.candidateSet(key: key, subject: subject, layout: layout)
    }

    /// The only route of candidate set `set` that `subject` could match: the set's one route, or
    /// the sieve's one survivor; `.several` when several remain, `.noneLeft` when none does.
    /// - Parameter known: The set's one route as dispatch read it from its slot (a route, or
    ///   `.notAlone`), or `.unread` when it did not (then `loneRoutes` says).
    @inline(__always)
    func loneCandidate(of set: Int, subject: UnsafeBufferPointer<UInt8>, known: LoneRoute = .unread) -> LoneRoute {
        let lone = known == .unread ? loneRoutes[set] : known
        if lone.isRoute { return lone }
        return sievedCandidate(of: set, subject: subject)
    }

    /// `loneCandidate` for a set that does not have exactly one route: what the sieve leaves (out
    /// of line, so that a set of one route costs its caller no call).
    @inline(never)
    private func sievedCandidate(of set: Int, subject: UnsafeBufferPointer<UInt8>) -> LoneRoute {
        sieve.survivors(of: set, subject: subject)
    }

    /// Runs route `order`'s own pattern on `subject`: PCRE2's return code (> 0 when it matched,
    /// the groups then in `matchData`). A pattern that is all literal text is not run: the
    /// subject matches when it is that text (1, no groups), else `PCRE2_ERROR_NOMATCH`.
    @inline(__always)
    func matchAlone(_ order: Int, _ subject: UnsafeBufferPointer<UInt8>, matchData: OpaquePointer) -> Int32 {
        let info = routes[order]
        if info.isLiteral {
            return isLiteralText(subject, of: info) ? 1 : PCRE2_ERROR_NOMATCH
        }
        return info.isJITCompiled
            ? pcre2_jit_match_8(info.code, subject.baseAddress, subject.count, 0, 0, matchData, matchContext)
            : pcre2_match_8(info.code, subject.baseAddress, subject.count, 0, 0, matchData, matchContext)
    }

    /// Whether `subject` is the literal text of route `info`.
    @inline(__always)
    private func isLiteralText(_ subject: UnsafeBufferPointer<UInt8>, of info: RouteInfo) -> Bool {
        guard subject.count == Int(info.literalLength) else { return false }
        guard let base = subject.baseAddress, let literals = literals.baseAddress else { return subject.isEmpty }
        return WordScan.equal(literals + Int(info.literalStart), base, count: subject.count)
    }

    /// Runs candidate set `set`'s chunks in order until one matches.
    func runChunks(of set: Int, _ subject: UnsafeBufferPointer<UInt8>, matchData: OpaquePointer) -> Outcome {
        let first = Int(setStarts[set])
        for chunkIndex in first..<Int(setStarts[set + 1]) {
            let chunk = chunks[chunkIndex]
            let rc = chunk.isJITCompiled
                ? pcre2_jit_match_8(chunk.code, subject.baseAddress, subject.count, chunk.start, 0, matchData, matchContext)
                : pcre2_match_8(chunk.code, subject.baseAddress, subject.count, chunk.start, 0, matchData, matchContext)
            if rc == PCRE2_ERROR_NOMATCH { continue }
            guard rc > 0 else {
                return .failed(code: rc, chunk: chunkIndex - first, route: Int(alternatives[Int(chunk.firstAlternative)].route))
            }
            // The mark is the alternative's number in decimal; its length is in the byte before it.
            guard let mark = pcre2_get_mark_8(matchData) else { preconditionFailure("a route chunk matched without passing a (*MARK)") }
            var alternative = 0
            for offset in 0..<Int(mark[-1]) { alternative = alternative * 10 + Int(mark[offset] &- UInt8(ascii: "0")) }
            let winner = alternatives[Int(chunk.firstAlternative) + alternative]
            let info = routes[Int(winner.route)]
            let captures = CaptureSpans(ovector: pcre2_get_ovector_pointer_8(matchData), groupBase: Int(winner.groupBase),
                                        count: Int(info.groupCount))
            return .matched(route: Int(winner.route), captures: captures, checksAfterPattern: info.checksAfterPattern)
        }
        return .noMatch(candidates: Int(setSizes[set]))
    }
}
