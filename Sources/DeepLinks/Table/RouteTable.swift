import CPCRE2

/// An immutable, compiled route table: matches URLs to routes, explains, builds URLs and lints.
///
/// Build one with `RouteTableBuilder` (or `RouteTable.load(directory:)`). Matching canonicalizes the
/// URL (an already canonical one is its own subject, checked only after its dispatch key:
/// `MatchPlan.verbatimDispatch`), finds the candidate routes from its scheme, host and first
/// segment with a hash lookup and from its number of `/` (`SegmentCountIndex`), narrows a small
/// set by literal prefix and next byte (`CandidateSieve`), then runs the one route left's own
/// pattern (compares the subject with it, when it is all literal text), or the candidates' chunked
/// alternations, through `pcre2_jit_match`, with the calling
/// thread's match data and the table's match limit. Order is deterministic: explicit priority
/// (higher first), then file order. `match` returns a `RouteMatch` that holds its route and URL;
/// `withMatch` lends the same answers as a `RouteMatchView` for one closure, holding nothing.
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
    let candidateSets: [CandidateSet]
    /// What every match reads, without references.
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

    /// Routes `url`: the first route in table order whose pattern, query rules and (when `context`
    /// says something) source and family constraints accept it.
    ///
    /// The match holds the route and the URL. To route many URLs and read a little of each,
    /// `withMatch` lends the match instead, which counts no references.
    ///
    /// The URL is taken, not borrowed, so that the match keeps the caller's copy instead of counting
    /// a reference of its own (a retain and a release a URL; `Benchmarks/README.md`, fourteenth pass).
    public func match(_ url: consuming String, context: TapContext = .any) -> Result<RouteMatch, RoutingFailure> {
        // What `find` found comes back in registers (`FoundRoute`); the URL is then moved into the match.
        let found = url.withUTF8 { find($0, context: context) }
        guard let route = found.route else { return .failure(failure(found, routing: url, context: context)) }
        return .success(RouteMatch(route: route.takeUnretainedValue(), source: url, url: found.url, captures: found.captures))
    }

    /// Routes the URL whose UTF-8 is `bytes`, for `withMatch`.
    @usableFromInline
    func find(_ bytes: UnsafeBufferPointer<UInt8>, context: TapContext) -> FoundRoute {
        let routed = hit(bytes: bytes, context: context)
        if case let .success(hit) = routed { return FoundRoute(route: hit.route, url: hit.url, captures: hit.captures) }
        return Self.found(routed)
    }

    /// What `find` says of a failure (out of line, so that `find` stays small).
    @inline(never)
    private static func found(_ routed: consuming Result<RouteHit, RoutingFailure>) -> FoundRoute {
        if case let .failure(.noRoute(candidates)) = routed { return FoundRoute(noRoute: candidates) }
        return .otherFailure
    }

    /// Why `url` matched no route, from what `find` found: the candidates tried, or, for the rare
    /// failures four words do not hold (an invalid URL, a match limit, a PCRE2 error), the reason
    /// found by routing the URL again (the table is immutable, so it fails the same way).
    @usableFromInline @inline(never)
    func failure(_ found: FoundRoute, routing url: String, context: TapContext) -> RoutingFailure {
        if let candidates = found.candidates { return .noRoute(candidates: candidates) }
        var source = url
        return source.withUTF8 { failure(found, routingBytes: $0, context: context) }
    }

    /// `failure(_:routing:context:)` for a URL given as its UTF-8.
    @usableFromInline @inline(never)
    func failure(_ found: FoundRoute, routingBytes bytes: UnsafeBufferPointer<UInt8>, context: TapContext) -> RoutingFailure {
        if let candidates = found.candidates { return .noRoute(candidates: candidates) }
        guard case let .failure(failure) = hit(bytes: bytes, context: context) else {
            preconditionFailure("a URL that failed to route matched when routed again")
        }
        return failure
    }

    /// Routes the URL whose UTF-8 is `sourceBytes`.
    ///
    /// Only the usual case is inline here: an already canonical URL, dispatched and matched in
    /// place. Canonicalizing is in a function of its own, so that this one stays small.
    @inline(__always)
    func hit(bytes sourceBytes: UnsafeBufferPointer<UInt8>, context: TapContext) -> Result<RouteHit, RoutingFailure> {
        let scratch = MatchScratch.current(minimumPairs: ovectorPairs)
        // An already canonical URL is its own subject.
        let set: Int
        let loneRoute: Int
        let url: MatchedURL
        let dispatched = plan.verbatimDispatch(sourceBytes, maxURLLength: canonicalizer.maxURLLength,
                                               maxParameterLength: canonicalizer.maxParameterLength)
        if dispatched.isAnswer {
            // Straight from the packed answer: unpacked into a `CanonicalLayout`, the layout was
            // kept in memory across the pattern's call, a store and a load per field.
            (set, loneRoute, url) = (dispatched.set, dispatched.loneRoute, dispatched.matchedURL)
        } else if !dispatched.isNotVerbatim, let dispatched = verbatimCandidateSet(sourceBytes) {
            (set, loneRoute, url) = (dispatched.set, -2, MatchedURL(layout: dispatched.layout, hasNoEscapes: true))
        } else {
            return matchCanonicalizing(sourceBytes, scratch: scratch, context: context)
        }
        return match(inSet: set, loneRoute: loneRoute, subject: UnsafeBufferPointer(start: sourceBytes.baseAddress, count: url.length),
                     url: url, sourceBytes: sourceBytes, spare: nil, scratch: scratch, context: context)
    }

    /// Matches a canonical subject against candidate set `set`: the one route the sieve leaves, run
    /// and checked here, or the set's chunks (`finish`).
    ///
    /// The usual case (one candidate whose pattern matches, nothing left to check) is inline; a
    /// refused winner, chunks and failures are in functions of their own, so that this one stays small.
    /// - Parameter spare: room for the URL's query, to decode values for query rules; nil to use
    ///   the thread's buffer.
    /// - Parameter url: what a match keeps of the URL's layout.
    /// - Parameter loneRoute: the set's one route as dispatch read it (-1: several or none), or -2
    ///   when dispatch did not read it.
    @inline(__always)
    private func match(inSet set: Int, loneRoute: Int = -2, subject: UnsafeBufferPointer<UInt8>, url: MatchedURL,
                       sourceBytes: UnsafeBufferPointer<UInt8>, spare: UnsafeMutablePointer<UInt8>?,
                       scratch: MatchScratch, context: TapContext) -> Result<RouteHit, RoutingFailure> {
        let lone = plan.loneCandidate(of: set, subject: subject, known: loneRoute)
        let outcome: MatchPlan.Outcome
        if lone >= 0 {
            // One candidate: its own pattern decides.
            let rc = plan.matchAlone(lone, subject, matchData: scratch.matchData)
            if rc > 0 {
                let info = plan.routes[lone]
                return winner(lone, inSet: set, captures: CaptureSpans(ovector: scratch.ovector, groupBase: 0, count: Int(info.groupCount)),
                              checksAfterPattern: info.checksAfterPattern, subject: subject, url: url, sourceBytes: sourceBytes,
                              spare: spare, scratch: scratch, context: context)
            }
            if rc == PCRE2_ERROR_NOMATCH { return .failure(.noRoute(candidates: Int(plan.setSizes[set]))) }
            outcome = .failed(code: rc, chunk: nil, route: lone)
        } else if lone == MatchPlan.noCandidate {
            return .failure(.noRoute(candidates: Int(plan.setSizes[set])))
        } else {
            outcome = plan.runChunks(of: set, subject, matchData: scratch.matchData)
        }
        return finish(set, outcome, subject: subject, url: url, sourceBytes: sourceBytes, spare: spare, scratch: scratch,
                      context: context)
    }

    /// The candidate set and layout of an already canonical URL that `MatchPlan.verbatimDispatch`
    /// left to the full check (no `//`, a host no key names, ...); nil when it is not canonical.
    @inline(never)
    private func verbatimCandidateSet(_ bytes: UnsafeBufferPointer<UInt8>) -> (set: Int, layout: CanonicalLayout)? {
        guard bytes.count <= MatchedURL.longestURL, let layout = canonicalizer.verbatimLayout(bytes) else { return nil }
        return (plan.candidateSet(for: UnsafeBufferPointer(start: bytes.baseAddress, count: layout.length), layout: layout), layout)
    }

    /// `match` for a URL that is not already canonical: its canonical subject goes into the
    /// thread's buffer (nothing is allocated unless the URL fails).
    @inline(never)
    private func matchCanonicalizing(_ sourceBytes: UnsafeBufferPointer<UInt8>, scratch: MatchScratch,
                                     context: TapContext) -> Result<RouteHit, RoutingFailure> {
        let longest = min(canonicalizer.maxURLLength, MatchedURL.longestURL)
        if sourceBytes.count > longest {
            return .failure(.invalidURL(.urlTooLong(length: sourceBytes.count, limit: longest)))
        }
        let buffer = scratch.subjectBuffer(capacity: max(sourceBytes.count, 1))
        let layout: CanonicalLayout
        do throws(CanonicalizationFailure) { layout = try canonicalizer.layout(sourceBytes, into: buffer) } catch {
            return .failure(.invalidURL(error))
        }
        // Query values are decoded after the subject, where there is room for the whole query.
        let subject = UnsafeBufferPointer(rebasing: buffer[0..<layout.length])
        let routed = match(subject: subject, layout: layout, sourceBytes: sourceBytes, spare: buffer.baseAddress! + layout.length,
                           scratch: scratch, context: context)
        // Reading parameters from the URL's bytes, not from a subject derived again.
        guard case let .success(hit) = routed else { return routed }
        return .success(hit.movedOntoURL(subject: subject, layout: layout, url: sourceBytes))
    }

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

    /// Dispatches and matches a canonical subject.
    /// - Parameter spare: room for the URL's query, to decode values for query rules.
    private func match(subject: UnsafeBufferPointer<UInt8>, layout: CanonicalLayout, sourceBytes: UnsafeBufferPointer<UInt8>,
                       spare: UnsafeMutablePointer<UInt8>, scratch: MatchScratch,
                       context: TapContext) -> Result<RouteHit, RoutingFailure> {
        match(inSet: plan.candidateSet(for: subject, layout: layout), subject: subject,
              url: MatchedURL(layout: layout, hasNoEscapes: false), sourceBytes: sourceBytes, spare: spare,
              scratch: scratch, context: context)
    }

    /// Turns what running the candidate set gave into the answer: checks the winner's query rules
    /// and constraints (going on one route at a time when they refuse it), or says why nothing matched.
    /// - Parameter spare: room for the URL's query, to decode values for query rules; nil to use
    ///   the thread's buffer.
    /// - Parameter url: what a match keeps of the URL's layout.
    @inline(never)
    private func finish(_ setIndex: Int, _ outcome: MatchPlan.Outcome, subject: UnsafeBufferPointer<UInt8>, url: MatchedURL,
                        sourceBytes: UnsafeBufferPointer<UInt8>, spare: UnsafeMutablePointer<UInt8>?, scratch: MatchScratch,
                        context: TapContext) -> Result<RouteHit, RoutingFailure> {
        switch outcome {
        case let .noMatch(candidates):
            return .failure(.noRoute(candidates: candidates))
        case let .failed(rc, chunk, order):
            let pattern = chunk.map { candidateSets[setIndex].chunks[$0].pattern } ?? routes[order].pattern
            return .failure(failure(rc, near: order, pattern: pattern))
        case let .matched(order, captures, checksAfterPattern):
            return winner(order, inSet: setIndex, captures: captures, checksAfterPattern: checksAfterPattern, subject: subject,
                          url: url, sourceBytes: sourceBytes, spare: spare, scratch: scratch, context: context)
        }
    }

    /// Route `order`, whose pattern won in candidate set `setIndex` with its groups at `captures`:
    /// the answer when nothing is left to check or its query rules and tap constraints accept the
    /// URL, else the next route of the set that matches and accepts it (`matchAfterRefused`).
    @inline(__always)
    private func winner(_ order: Int, inSet setIndex: Int, captures: CaptureSpans, checksAfterPattern: Bool,
                        subject: UnsafeBufferPointer<UInt8>, url: MatchedURL, sourceBytes: UnsafeBufferPointer<UInt8>,
                        spare: UnsafeMutablePointer<UInt8>?, scratch: MatchScratch, context: TapContext) -> Result<RouteHit, RoutingFailure> {
        if !checksAfterPattern || accepts(order, context: context, url: sourceBytes, query: url.queryRange(in: sourceBytes), spare: spare,
                                          scratch: scratch) {
            return .success(RouteHit(route: plan.routes[order].route, url: url, captures: captures))
        }
        return matchAfterRefused(order, inSet: setIndex, subject: subject, url: url, sourceBytes: sourceBytes, spare: spare,
                                 scratch: scratch, context: context)
    }

    /// Query rules or tap constraints refused route `order`, whose pattern won in candidate set
    /// `setIndex`: the later routes of the set are tried one at a time, in order.
    /// - Parameter spare: as for `finish`.
    @inline(never)
    private func matchAfterRefused(_ order: Int, inSet setIndex: Int, subject: UnsafeBufferPointer<UInt8>, url: MatchedURL,
                                   sourceBytes: UnsafeBufferPointer<UInt8>, spare: UnsafeMutablePointer<UInt8>?, scratch: MatchScratch,
                                   context: TapContext) -> Result<RouteHit, RoutingFailure> {
        let set = candidateSets[setIndex]
        guard let position = set.routes.firstIndex(of: order) else { return .failure(.noRoute(candidates: set.routes.count)) }
        for order in set.routes[(position + 1)...] {
            let candidate = routes[order]
            let rc = candidate.pattern.match(subject, scratch: scratch, context: limits)
            if rc == PCRE2_ERROR_NOMATCH { continue }
            guard rc > 0 else { return .failure(failure(rc, near: order, pattern: candidate.pattern)) }
            let captures = CaptureSpans(ovector: scratch.ovector, groupBase: 0, count: candidate.groupNames.count)
            if accepts(order, context: context, url: sourceBytes, query: url.queryRange(in: sourceBytes), spare: spare, scratch: scratch) {
                return .success(RouteHit(route: plan.routes[order].route, url: url, captures: captures))
            }
        }
        return .failure(.noRoute(candidates: set.routes.count))
    }

    /// Whether route `order`'s tap constraints and query rules accept a URL (`url`, its query at
    /// `query`) from `context`. (The route is borrowed from the plan, so that checking it counts no
    /// references.)
    /// - Parameter spare: room for the query, where values with escapes are decoded; nil for the
    ///   thread's buffer (taken only when the route has query rules).
    @inline(__always)
    func accepts(_ order: Int, context: TapContext, url: UnsafeBufferPointer<UInt8>, query: Range<Int>?,
                 spare: UnsafeMutablePointer<UInt8>?, scratch: MatchScratch) -> Bool {
        plan.routes[order].route._withUnsafeGuaranteedRef { route in
            guard route.accepts(context) else { return false }
            // The plan's rules, which the check reads anyway (not `definition.queryRules`: another cache line).
            if route.queryPlan.rules.isEmpty { return true }
            let spare = spare ?? scratch.subjectBuffer(capacity: max(url.count, 1)).baseAddress!
            return route.queryRuleViolation(url, query: query, spare: spare, scratch: scratch, limits: limits) == nil
        }
    }

    func candidateSetIndex(_ layout: CanonicalLayout, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        plan.candidateSet(for: bytes, layout: layout)
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
