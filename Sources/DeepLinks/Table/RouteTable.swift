import CPCRE2

/// An immutable, compiled route table: matches URLs to routes, explains, builds URLs and lints.
///
/// Build one with `RouteTableBuilder` (or `RouteTable.load(directory:)`). Matching canonicalizes the
/// URL, finds the candidate routes from its scheme, host and first segment with a hash lookup, then
/// runs only those candidates' chunked alternations through `pcre2_jit_match`, with the calling
/// thread's match data and the table's match limit. Order is deterministic: explicit priority
/// (higher first), then file order. A table is `Sendable` and may be used from any number of
/// threads at once; to change routes, build a new table and swap it in a `RouteTableHolder`.
public final class RouteTable: Sendable {
    /// The routes in order (priority, then file order).
    public let routes: [Route]
    /// How URLs are canonicalized before matching.
    public let canonicalizer: URLCanonicalizer
    /// Warnings found while building (errors prevent building).
    public let warnings: [RouteDiagnostic]
    let limits: MatchLimits
    let candidateSets: [CandidateSet]
    let dispatch: DispatchIndex
    /// What every match reads, without references.
    let plan: MatchPlan
    /// The ovector pairs any match of this table needs (chunks, route patterns, value patterns).
    let ovectorPairs: Int
    private let routesByName: [String: Int]

    init(routes: [Route], canonicalizer: URLCanonicalizer, limits: MatchLimits, candidateSets: [CandidateSet],
         dispatch: DispatchIndex, warnings: [RouteDiagnostic]) {
        self.routes = routes
        self.canonicalizer = canonicalizer
        self.limits = limits
        self.candidateSets = candidateSets
        self.dispatch = dispatch
        self.warnings = warnings
        // Enough pairs for every chunk, every route's own pattern and every query value pattern.
        let valueGroups = routes.flatMap { $0.queryValuePatterns.compactMap { $0?.captureCount } }.max() ?? 0
        self.ovectorPairs = max(candidateSets.map(\.ovectorPairs).max() ?? 1, (routes.map(\.pattern.captureCount).max() ?? 0) + 1,
                                valueGroups + 1)
        self.plan = MatchPlan(candidateSets: candidateSets, routes: routes)
        self.routesByName = Dictionary(uniqueKeysWithValues: routes.map { ($0.name, $0.order) })
    }

    /// The match limit applied to every match.
    public var matchLimit: UInt32 { limits.matchLimit }

    /// The route named `name`.
    public func route(named name: String) -> Route? { routesByName[name].map { routes[$0] } }

    /// Routes `url`: the first route in table order whose pattern, query rules and (when `context`
    /// says something) source and family constraints accept it.
    public func match(_ url: String, context: TapContext = .any) -> Result<RouteMatch, RoutingFailure> {
        var source = url
        return source.withUTF8 { sourceBytes in
            if sourceBytes.count > canonicalizer.maxURLLength {
                return .failure(.invalidURL(.urlTooLong(length: sourceBytes.count, limit: canonicalizer.maxURLLength)))
            }
            // The canonical subject goes into the thread's buffer: nothing is allocated unless the URL fails.
            let scratch = MatchScratch.current(minimumPairs: ovectorPairs)
            let buffer = scratch.subjectBuffer(capacity: max(sourceBytes.count, 1))
            let layout: CanonicalLayout
            do throws(CanonicalizationFailure) { layout = try canonicalizer.layout(sourceBytes, into: buffer) } catch {
                return .failure(.invalidURL(error))
            }
            // Query values are decoded after the subject, where there is room for the whole query.
            return match(subject: UnsafeBufferPointer(rebasing: buffer[0..<layout.length]), layout: layout,
                         source: url, sourceBytes: sourceBytes, canonicalizer: canonicalizer,
                         spare: buffer.baseAddress! + layout.length, scratch: scratch, context: context)
        }
    }

    /// The matched route for `url`, or nil.
    public func firstMatch(_ url: String, context: TapContext = .any) -> RouteMatch? {
        try? match(url, context: context).get()
    }

    /// Routes an already canonical URL.
    public func match(_ canonical: CanonicalURL, context: TapContext = .any) -> Result<RouteMatch, RoutingFailure> {
        var source = canonical.source
        var subject = canonical.subject
        return source.withUTF8 { sourceBytes in
            subject.withUTF8 { bytes in
                let scratch = MatchScratch.current(minimumPairs: ovectorPairs)
                let spare = scratch.subjectBuffer(capacity: max(sourceBytes.count, 1))
                return match(subject: bytes, layout: canonical.layout, source: canonical.source, sourceBytes: sourceBytes,
                             canonicalizer: canonical.canonicalizer, spare: spare.baseAddress!, scratch: scratch, context: context)
            }
        }
    }

    /// Dispatches and matches a canonical subject.
    /// - Parameter spare: room for the URL's query, to decode values for query rules.
    private func match(subject: UnsafeBufferPointer<UInt8>, layout: CanonicalLayout, source: String,
                       sourceBytes: UnsafeBufferPointer<UInt8>, canonicalizer: URLCanonicalizer,
                       spare: UnsafeMutablePointer<UInt8>, scratch: MatchScratch,
                       context: TapContext) -> Result<RouteMatch, RoutingFailure> {
        let setIndex = candidateSetIndex(layout, subject)
        @inline(__always)
        func accepts(_ route: Route) -> Bool {
            guard route.accepts(context) else { return false }
            if route.definition.queryRules.isEmpty { return true }
            return route.queryRuleViolation(sourceBytes, query: layout.queryRange, spare: spare, scratch: scratch, limits: limits) == nil
        }
        @inline(__always)
        func success(_ route: Route, _ captures: CaptureSpans) -> Result<RouteMatch, RoutingFailure> {
            .success(RouteMatch(route: route, source: source, layout: layout, canonicalizer: canonicalizer, captures: captures))
        }

        let plan = plan
        let matchData = scratch.matchData
        for chunkIndex in Int(plan.setStarts[setIndex])..<Int(plan.setStarts[setIndex + 1]) {
            let chunk = plan.chunks[chunkIndex]
            let rc = chunk.isJITCompiled
                ? pcre2_jit_match_8(chunk.code, subject.baseAddress, subject.count, chunk.start, 0, matchData, limits.context)
                : pcre2_match_8(chunk.code, subject.baseAddress, subject.count, chunk.start, 0, matchData, limits.context)
            if rc == PCRE2_ERROR_NOMATCH { continue }
            guard rc > 0 else {
                let first = Int(plan.alternatives[Int(chunk.firstAlternative)].route)
                let pattern = candidateSets[setIndex].chunks[chunkIndex - Int(plan.setStarts[setIndex])].pattern
                return .failure(failure(rc, near: first, pattern: pattern))
            }
            guard let alternative = markValue(scratch) else {
                preconditionFailure("a route chunk matched without passing a (*MARK)")
            }
            let winner = plan.alternatives[Int(chunk.firstAlternative) + alternative]
            let info = plan.routes[Int(winner.route)]
            // Copied out first: query rules reuse the match data.
            let captures = CaptureSpans(ovector: pcre2_get_ovector_pointer_8(matchData), groupBase: Int(winner.groupBase),
                                        count: Int(info.groupCount))
            let route = routes[Int(winner.route)]
            if !info.checksAfterPattern || accepts(route) { return success(route, captures) }
            // Query rules or constraints refused the pattern's winner: go on, one route at a time.
            let set = candidateSets[setIndex]
            guard let position = set.routes.firstIndex(of: route.order) else { break }
            for order in set.routes[(position + 1)...] {
                let candidate = routes[order]
                let rc = candidate.pattern.match(subject, scratch: scratch, context: limits)
                if rc == PCRE2_ERROR_NOMATCH { continue }
                guard rc > 0 else { return .failure(failure(rc, near: order, pattern: candidate.pattern)) }
                let captures = CaptureSpans(ovector: scratch.ovector, groupBase: 0, count: candidate.groupNames.count)
                if accepts(candidate) { return success(candidate, captures) }
            }
            break
        }
        return .failure(.noRoute(candidates: Int(plan.setSizes[setIndex])))
    }

    func candidateSetIndex(_ layout: CanonicalLayout, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        dispatch.candidateSet(for: bytes, schemeEnd: layout.schemeLength, pathStart: layout.pathStart,
                              firstSegmentEnd: layout.firstSegmentEnd, hasAuthority: layout.hasAuthority)
    }

    private func failure(_ rc: Int32, near order: Int, pattern: CompiledPattern) -> RoutingFailure {
        if rc == PCRE2_ERROR_MATCHLIMIT { return .matchLimitExceeded(route: routes[order].name) }
        return .matchError(PCRE2Error(code: rc, pattern: pattern.source, function: "pcre2_jit_match"))
    }

    private func markValue(_ scratch: MatchScratch) -> Int? {
        guard let mark = scratch.mark, !mark.isEmpty else { return nil }
        var value = 0
        for byte in mark { value = value * 10 + Int(byte &- UInt8(ascii: "0")) }
        return value
    }

    /// Reads the route's groups from the ovector; groups that did not take part are left out.
    func extractParameters(_ route: Route, groupBase: Int, scratch: MatchScratch, subject: UnsafeBufferPointer<UInt8>) -> [PathParameter] {
        let captures = CaptureSpans(ovector: scratch.ovector, groupBase: groupBase, count: route.groupNames.count)
        var parameters: [PathParameter] = []
        for (index, name) in route.groupNames.enumerated() {
            guard let name, let span = captures.span(index) else { continue }
            parameters.append(PathParameter(name: name, value: CanonicalURL.unescapeSubject(subject, span)))
        }
        return parameters
    }
}
