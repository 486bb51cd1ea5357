import CPCRE2

/// An immutable, compiled route table: matches URLs to routes, explains, builds URLs and lints.
///
/// Build one with `RouteTableBuilder` (or `RouteTable.load(directory:)`). What a URL routes to is
/// defined by `referenceMatch(_:context:)`: the URL is canonicalized, then the first route in
/// table order (explicit priority, higher first, then file order) whose pattern, query rules and
/// tap constraints accept it wins. `match` returns that route as a `RouteMatch`, which holds the
/// route and the URL; `withMatch` lends the same answers as a `RouteMatchView` for one closure,
/// holding nothing.
///
/// `match` and `withMatch` do not try every route. They take the fast path described in
/// `FastPath/RouteTable+FastPath.swift`: a hash lookup of the URL's scheme, host and first segment
/// and its number of `/` choose a small candidate set, a sieve on literal prefixes narrows it,
/// and PCRE2's JIT runs one route's pattern or the set's chunked alternations. The differential
/// tests and the `RouteReferenceFuzzer` fuzz target hold it to `referenceMatch`.
///
/// A table is `Sendable` and may be used from any number of threads at once; to change routes,
/// build a new table and swap it in a `RouteTableHolder`.
public final class RouteTable: Sendable {
    /// The routes in order (priority, then file order).
    public let routes: [Route]
    /// How URLs are canonicalized before matching.
    public let canonicalizer: URLCanonicalizer
    /// Warnings found while building (errors prevent building).
    public let warnings: [RouteDiagnostic]
    let limits: MatchLimits
    /// The routes each dispatch key (and number of `/`) can reach, compiled into alternations.
    let candidateSets: [CandidateSet]
    /// What the fast path reads on every match, laid out without references.
    let plan: MatchPlan
    /// The ovector pairs any match of this table needs (chunks, route patterns, value patterns).
    let ovectorPairs: Int
    private let routesByName: [String: Int]

    init(routes: [Route], canonicalizer: URLCanonicalizer, limits: MatchLimits, candidateSets: [CandidateSet],
         dispatch: DispatchIndex, segmentCounts: SegmentCountIndex, warnings: [RouteDiagnostic]) {
        // Matches read parameters as small strings once this has found their layout the standard library's.
        SmallASCIIString.check()
        self.routes = routes
        self.canonicalizer = canonicalizer
        self.limits = limits
        self.candidateSets = candidateSets
        self.warnings = warnings
        // Enough pairs for every chunk, every route's own pattern and every query value pattern.
        let valueGroups = routes.flatMap { $0.queryValuePatterns.compactMap { $0?.captureCount } }.max() ?? 0
        self.ovectorPairs = max(candidateSets.map(\.ovectorPairs).max() ?? 1, (routes.map(\.pattern.captureCount).max() ?? 0) + 1,
                                valueGroups + 1)
        self.plan = MatchPlan(candidateSets: candidateSets, routes: routes, dispatch: dispatch, segmentCounts: segmentCounts,
                              limits: limits)
        self.routesByName = Dictionary(uniqueKeysWithValues: routes.map { ($0.name, $0.order) })
    }

    /// The match limit applied to every match.
    public var matchLimit: UInt32 { limits.matchLimit }

    /// The route named `name`.
    public func route(named name: String) -> Route? { routesByName[name].map { routes[$0] } }

    // `match(_:context:)`, the main entry point, is defined in `FastPath/RouteTable+FastPath.swift`,
    // just before `find`, the fast path it inlines (the reason is there).

    /// The matched route for `url`, or nil.
    public func firstMatch(_ url: String, context: TapContext = .any) -> RouteMatch? {
        try? match(url, context: context).get()
    }

    /// Routes an already canonical URL.
    public func match(_ canonical: CanonicalURL, context: TapContext = .any) -> Result<RouteMatch, RoutingFailure> {
        if canonical.source.utf8.count > MatchedURL.longestURL {
            return .failure(.invalidURL(.urlTooLong(length: canonical.source.utf8.count, limit: MatchedURL.longestURL)))
        }
        var source = canonical.source
        var subject = canonical.subject
        let routed = source.withUTF8 { sourceBytes in
            subject.withUTF8 { bytes in
                let scratch = MatchScratch.current(minimumPairs: ovectorPairs)
                let spare = scratch.subjectBuffer(capacity: max(sourceBytes.count, 1))
                return match(subject: bytes, layout: canonical.layout, sourceBytes: sourceBytes,
                             spare: spare.baseAddress!, scratch: scratch, context: context)
            }
        }
        return routed.map { RouteMatch(route: $0.route.takeUnretainedValue(), source: canonical.source, hit: $0) }
    }

    /// The failure for PCRE2's code `rc` from `pattern`, which was running route `order` (or the chunk starting with it).
    func failure(_ rc: Int32, near order: Int, pattern: CompiledPattern) -> RoutingFailure {
        if rc == PCRE2_ERROR_MATCHLIMIT { return .matchLimitExceeded(route: routes[order].name) }
        return .matchError(PCRE2Error(code: rc, pattern: pattern.source, function: "pcre2_jit_match"))
    }

    /// Reads the route's groups from the ovector; groups that did not take part are left out.
    func extractParameters(_ route: Route, groupBase: Int, scratch: MatchScratch, subject: UnsafeBufferPointer<UInt8>) -> [PathParameter] {
        var parameters: [PathParameter] = []
        for (index, name) in route.groupNames.enumerated() {
            guard let name, let span = scratch.span(ofGroup: groupBase + index + 1) else { continue }
            parameters.append(PathParameter(name: name, value: CanonicalURL.unescapeSubject(subject, span)))
        }
        return parameters
    }
}
