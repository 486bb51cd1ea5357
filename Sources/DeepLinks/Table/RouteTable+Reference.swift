import CPCRE2

extension RouteTable {
    /// Routes `url` the plain way: the executable specification of `match(_:context:)`.
    ///
    /// The rules, in order:
    /// 1. A URL longer than the canonicalizer's `maxURLLength` (or than the 2³¹ − 2 bytes any match
    ///    can hold) is refused with `urlTooLong`. Otherwise it is canonicalized by the canonicalizer's
    ///    rule-by-rule reference (see `URLCanonicalizer`); a URL with no canonical form is
    ///    `.invalidURL` with the first rule it breaks.
    /// 2. Every route is tried in table order (higher `priority` first, then the order the routes
    ///    were added in), its own pattern run by PCRE2 on the whole canonical subject under the
    ///    table's match limit.
    /// 3. A route whose pattern matches takes the URL when the tap's context allows it
    ///    (`Route.accepts(_:)`: its `sources` and `families`, where the context says) and its query
    ///    rules accept the URL's decoded query items: for each rule, the items whose decoded name is
    ///    the rule's (compared as Swift strings are); there must be one when the rule is required,
    ///    at most one unless it is repeated, and each value must match the rule's value pattern
    ///    whole (a value pattern that reaches the match limit refuses the value). Otherwise the
    ///    next route is tried: routes fall through in order.
    /// 4. The first route that takes the URL is the answer, with its named groups that took part in
    ///    the match, each decoded (`%2F` is `/`, `%25` is `%`), and every query item of the URL.
    /// 5. A pattern that fails (reaches the match limit, say) stops routing with that failure; no
    ///    route taking the URL is `.noRoute`.
    ///
    /// `match`, `withMatch` and `withMatch(utf8:)` give this answer for every URL (`RoutingAnswer`
    /// of their results) through their fast path (dispatch index, segment-count buckets, sieve,
    /// `(*MARK)` alternations; see `FastPath/`), except that near the match limit they can differ:
    /// an alternation of several routes backtracks differently from each route's pattern alone, so
    /// one may reach the limit where the other does not. Differential tests and the
    /// `RouteReferenceFuzzer` fuzz target hold them to this.
    ///
    /// Runs every route's pattern until one takes the URL: for tests, tools and reading, not for
    /// routing traffic.
    /// - Parameters:
    ///   - url: The URL to route.
    ///   - context: The tap's source and family, for routes constrained by them.
    /// - Returns: The route and what it reads of the URL, or why none takes it.
    public func referenceMatch(_ url: String, context: TapContext = .any) -> RoutingAnswer {
        url.withUTF8Bytes { referenceMatch(utf8: $0, context: context) }
    }

    /// `referenceMatch(_:context:)` for the URL whose UTF-8 is `utf8`: the specification of
    /// `withMatch(utf8:context:_:)`. Bytes that are not UTF-8 before any `#` have no canonical form
    /// (`CanonicalizationFailure.notUTF8(offset:)`).
    public func referenceMatch(utf8: UnsafeBufferPointer<UInt8>, context: TapContext = .any) -> RoutingAnswer {
        let longest = min(canonicalizer.maxURLLength, MatchedURL.longestURL)
        guard utf8.count <= longest else { return .invalidURL(.urlTooLong(length: utf8.count, limit: longest)) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(utf8.count, 1)) { buffer in
            let layout: CanonicalLayout
            do throws(CanonicalizationFailure) { layout = try canonicalizer.referenceLayout(utf8, into: buffer) } catch {
                return .invalidURL(error)
            }
            let subject = UnsafeBufferPointer(rebasing: buffer[0..<layout.length])
            let query = layout.queryRange.map { QueryParser.parse(utf8, from: $0.lowerBound, to: $0.upperBound) } ?? []
            for route in routes {
                let scratch = MatchScratch.current(minimumPairs: route.pattern.captureCount + 1)
                let rc = route.pattern.match(subject, scratch: scratch, context: limits)
                if rc == PCRE2_ERROR_NOMATCH { continue }
                guard rc > 0 else { return .matchFailed(PCRE2Error.Code(rawValue: rc)) }
                // Read before a value pattern of the query rules reuses the thread's match data.
                let parameters = extractParameters(route, groupBase: 0, scratch: scratch, subject: subject)
                if route.accepts(context), queryRulesAccept(route, query) {
                    return .matched(route: route.name, pathParameters: parameters, queryItems: query)
                }
            }
            return .noRoute
        }
    }

    /// Whether `route`'s query rules accept a URL whose decoded query items are `items` (rule 3 of
    /// `referenceMatch`).
    private func queryRulesAccept(_ route: Route, _ items: [QueryItem]) -> Bool {
        for (rule, valuePattern) in zip(route.definition.queryRules, route.queryValuePatterns) {
            let values = items.filter { $0.name == rule.name }.map(\.value)
            if rule.isRequired, values.isEmpty { return false }
            if !rule.isRepeated, values.count > 1 { return false }
            if let valuePattern, values.contains(where: { valuePattern.matches($0, context: limits) <= 0 }) { return false }
        }
        return true
    }
}
