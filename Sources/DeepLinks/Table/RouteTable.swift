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
    private let ovectorPairs: Int
    private let routesByName: [String: Int]

    init(routes: [Route], canonicalizer: URLCanonicalizer, limits: MatchLimits, candidateSets: [CandidateSet],
         dispatch: DispatchIndex, warnings: [RouteDiagnostic]) {
        self.routes = routes
        self.canonicalizer = canonicalizer
        self.limits = limits
        self.candidateSets = candidateSets
        self.dispatch = dispatch
        self.warnings = warnings
        self.ovectorPairs = max(candidateSets.map(\.ovectorPairs).max() ?? 1, (routes.map(\.pattern.captureCount).max() ?? 0) + 1)
        self.routesByName = Dictionary(uniqueKeysWithValues: routes.map { ($0.name, $0.order) })
    }

    /// The match limit applied to every match.
    public var matchLimit: UInt32 { limits.matchLimit }

    /// The route named `name`.
    public func route(named name: String) -> Route? { routesByName[name].map { routes[$0] } }

    /// Routes `url`: the first route in table order whose pattern, query rules and (when `context`
    /// says something) source and family constraints accept it.
    public func match(_ url: String, context: TapContext = .any) -> Result<RouteMatch, RoutingFailure> {
        let canonical: CanonicalURL
        do { canonical = try canonicalizer.canonicalize(url) } catch { return .failure(.invalidURL(error)) }
        return match(canonical, context: context)
    }

    /// The matched route for `url`, or nil.
    public func firstMatch(_ url: String, context: TapContext = .any) -> RouteMatch? {
        try? match(url, context: context).get()
    }

    /// Routes an already canonical URL.
    public func match(_ canonical: CanonicalURL, context: TapContext = .any) -> Result<RouteMatch, RoutingFailure> {
        var subject = canonical.subject
        return subject.withUTF8 { bytes in
            let set = candidateSets[candidateSetIndex(canonical, bytes)]
            let scratch = MatchScratch.current(minimumPairs: ovectorPairs)
            for chunk in set.chunks {
                let rc = chunk.pattern.match(bytes, scratch: scratch, context: limits)
                if rc == PCRE2_ERROR_NOMATCH { continue }
                guard rc > 0 else { return .failure(failure(rc, near: chunk.routes[0], pattern: chunk.pattern)) }
                guard let alternative = markValue(scratch) else {
                    preconditionFailure("a route chunk matched without passing a (*MARK)")
                }
                let route = routes[chunk.routes[alternative]]
                let parameters = extractParameters(route, groupBase: chunk.groupBases[alternative], scratch: scratch, subject: bytes)
                if accepts(route, canonical, context) {
                    return .success(makeMatch(route, parameters, canonical))
                }
                // Query rules or constraints refused the pattern's winner: go on, one route at a time.
                guard let position = set.routes.firstIndex(of: route.order) else { break }
                return matchEach(set.routes[(position + 1)...], canonical, bytes, context, scratch, tried: set.routes.count)
            }
            return .failure(.noRoute(candidates: set.routes.count))
        }
    }

    /// Tries `orders` one pattern at a time (the slow path after a query rule refused a winner).
    private func matchEach(_ orders: ArraySlice<Int>, _ canonical: CanonicalURL, _ bytes: UnsafeBufferPointer<UInt8>,
                           _ context: TapContext, _ scratch: MatchScratch, tried: Int) -> Result<RouteMatch, RoutingFailure> {
        for order in orders {
            let route = routes[order]
            let rc = route.pattern.match(bytes, scratch: scratch, context: limits)
            if rc == PCRE2_ERROR_NOMATCH { continue }
            guard rc > 0 else { return .failure(failure(rc, near: order, pattern: route.pattern)) }
            let parameters = extractParameters(route, groupBase: 0, scratch: scratch, subject: bytes)
            if accepts(route, canonical, context) { return .success(makeMatch(route, parameters, canonical)) }
        }
        return .failure(.noRoute(candidates: tried))
    }

    func candidateSetIndex(_ canonical: CanonicalURL, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        dispatch.candidateSet(for: bytes, schemeEnd: canonical.scheme.utf8.count, pathStart: canonical.pathStart,
                              firstSegmentEnd: canonical.firstSegmentEnd, hasAuthority: canonical.hasAuthority)
    }

    func accepts(_ route: Route, _ canonical: CanonicalURL, _ context: TapContext) -> Bool {
        route.accepts(context) && (route.definition.queryRules.isEmpty || route.queryRuleFailure(canonical.queryItems, limits: limits) == nil)
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
    func extractParameters(_ route: Route, groupBase: Int, scratch: MatchScratch, subject: UnsafeBufferPointer<UInt8>) -> [String: String] {
        guard !route.groupNames.isEmpty else { return [:] }
        var parameters: [String: String] = [:]
        parameters.reserveCapacity(route.groupNames.count)
        let ovector = scratch.ovector
        let unset = cpcre2_unset()
        for (offset, name) in route.groupNames.enumerated() {
            guard let name else { continue }
            let group = groupBase + offset + 1
            let start = ovector[2 * group]
            let end = ovector[2 * group + 1]
            guard start != unset, end >= start else { continue }
            let raw = Substring(decoding: UnsafeBufferPointer(rebasing: subject[start..<end]), as: UTF8.self)
            parameters[name] = CanonicalURL.unescapeSubject(raw)
        }
        return parameters
    }

    private func makeMatch(_ route: Route, _ parameters: [String: String], _ canonical: CanonicalURL) -> RouteMatch {
        RouteMatch(routeName: route.name, target: route.target, parameters: parameters,
                   queryItems: canonical.queryItems, canonicalURL: canonical)
    }
}
