import CPCRE2

/// The fast path of `RouteTable.match` and `withMatch`: the same answers as `referenceMatch`,
/// without trying every route.
///
/// A URL goes through these steps (the folders under `FastPath/` hold the types of each):
/// 1. Dispatch (`Dispatch/`). The candidate routes are those whose literal start fits the URL's
///    scheme, host and first path segment, found with one hash lookup (`DispatchIndex`), split by
///    the URL's number of `/` (`SegmentCountIndex`) into a `CandidateSet`, in table order. Routes a
///    set leaves out cannot match: their literal prefix or their number of `/` rules the subject out.
/// 2. An already canonical URL, the usual case, is its own subject: `MatchPlan.verbatimDispatch`
///    checks only the bytes after the dispatch key it finds in the URL, and answers the set and the
///    layout at once (`Plan/`). Any other URL is canonicalized in one pass into the thread's
///    buffer (`Canonicalizer/`), and dispatched from its layout.
/// 3. Within the set, `CandidateSieve` keeps the routes whose literal prefix and next byte the
///    subject has (`LoneRoute` says what is known). One left: its own pattern runs, or, for a
///    pattern that is all literal text, the subject is compared with that text. None: no route.
///    Several: the set's chunks run, each an anchored alternation whose `(*MARK)` names the
///    alternative that matched, so the first match is the first route in table order.
/// 4. The winner's tap constraints and query rules are checked (`QueryRulePlan`); when they refuse
///    it, the set's later routes are tried one at a time, as the reference falls through.
/// 5. The answer comes back as plain values in registers (`Results/`): the route, not retained,
///    where its groups matched and where the query is; parameters are decoded only when read.
///
/// Why it is laid out this way: every step reads flat buffers of plain values built once per table
/// (`MatchPlan`), so a match follows no reference and counts none, and the usual URL needs one
/// hash lookup and one JIT match. Each type's documentation says why it is shaped as it is. To
/// measure a change, run `widgethost-bench routes` (see `Benchmarks/README.md`).
extension RouteTable {
    /// Routes `url`: the first route in table order whose pattern, query rules and (when `context`
    /// says something) source and family constraints accept it, as `referenceMatch(_:context:)`
    /// defines.
    ///
    /// The match holds the route and the URL. To route many URLs and read a little of each,
    /// `withMatch` lends the match instead, which counts no references.
    ///
    /// The URL is taken, not borrowed, so that the match keeps the caller's string instead of
    /// retaining a copy of its own: one retain and one release fewer for every URL routed.
    public func match(_ url: consuming String, context: TapContext = .any) -> Result<RouteMatch, RoutingFailure> {
        // Defined here, before `find`, not in RouteTable.swift: the optimizer inlines `find` into both
        // of `withUTF8`'s paths only when it meets this function first (with `match` in a file that
        // sorts after this one it called `find` instead, about 25 instructions more a URL, which
        // `@inline(__always)` on `find` did not change).
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
        let loneRoute: LoneRoute
        let url: MatchedURL
        let dispatched = plan.verbatimDispatch(sourceBytes, maxURLLength: canonicalizer.maxURLLength,
                                               maxParameterLength: canonicalizer.maxParameterLength)
        if dispatched.isAnswer {
            // Straight from the packed answer, which stays in registers: unpacked into a
            // `CanonicalLayout`, the layout would be kept in memory across the pattern's call, a
            // store and a load per field.
            (set, loneRoute, url) = (dispatched.set, dispatched.loneRoute, dispatched.matchedURL)
        } else if !dispatched.isNotVerbatim, let dispatched = verbatimCandidateSet(sourceBytes) {
            (set, loneRoute, url) = (dispatched.set, .unread, MatchedURL(layout: dispatched.layout, hasNoEscapes: true))
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
    /// - Parameter loneRoute: the set's one route as dispatch read it from its slot, or `.unread`.
    @inline(__always)
    private func match(inSet set: Int, loneRoute: LoneRoute = .unread, subject: UnsafeBufferPointer<UInt8>, url: MatchedURL,
                       sourceBytes: UnsafeBufferPointer<UInt8>, spare: UnsafeMutablePointer<UInt8>?,
                       scratch: MatchScratch, context: TapContext) -> Result<RouteHit, RoutingFailure> {
        let lone = plan.loneCandidate(of: set, subject: subject, known: loneRoute)
        let outcome: MatchPlan.Outcome
        if lone.isRoute {
            // One candidate: its own pattern decides.
            let rc = plan.matchAlone(lone.order, subject, matchData: scratch.matchData)
            if rc > 0 {
                let info = plan.routes[lone.order]
                return winner(lone.order, inSet: set, captures: CaptureSpans(ovector: scratch.ovector, groupBase: 0, count: Int(info.groupCount)),
                              checksAfterPattern: info.checksAfterPattern, subject: subject, url: url, sourceBytes: sourceBytes,
                              spare: spare, scratch: scratch, context: context)
            }
            if rc == PCRE2_ERROR_NOMATCH { return .failure(.noRoute(candidates: Int(plan.setSizes[set]))) }
            outcome = .failed(code: rc, chunk: nil, route: lone.order)
        } else if lone == .noneLeft {
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

    /// Dispatches and matches a canonical subject.
    /// - Parameter spare: room for the URL's query, to decode values for query rules.
    func match(subject: UnsafeBufferPointer<UInt8>, layout: CanonicalLayout, sourceBytes: UnsafeBufferPointer<UInt8>,
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

    /// The candidate set dispatch chooses for the canonical subject `bytes` (for `explain` and `matches`).
    func candidateSetIndex(_ layout: CanonicalLayout, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        plan.candidateSet(for: bytes, layout: layout)
    }
}
