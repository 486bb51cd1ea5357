import CPCRE2

extension RouteTable {
    /// Every route that takes `url`, in the order routing tries them (priority, then file order):
    /// the first is `match`'s answer, the others are what it shadows. A host whose handler for the
    /// first declines the tap (the data it names is gone, say) falls through to the next, as
    /// JLRoutes' and DeepLinkKit's handlers may, with the parameters that route gives.
    ///
    /// A route takes the URL when its pattern matches the canonical subject and its query rules
    /// and tap constraints accept the URL, as in `match`; only the candidates dispatch chose are
    /// tried, since no other route can match. Each match is independent of the others (each keeps
    /// its own route and the URL). Slower than `match`: every candidate's own pattern runs.
    /// - Returns: The matches, at least one; or why there are none: `.noRoute` when no candidate
    ///   takes the URL, `.invalidURL`, or, when a candidate's pattern fails (the match limit, say),
    ///   that failure, even after matches were found, as the list would be incomplete.
    public func matches(_ url: String, context: TapContext = .any) -> Result<[RouteMatch], RoutingFailure> {
        guard url.utf8.count <= MatchedURL.longestURL else {
            return .failure(.invalidURL(.urlTooLong(length: url.utf8.count, limit: MatchedURL.longestURL)))
        }
        let canonical: CanonicalURL
        do { canonical = try canonicalizer.canonicalize(url) } catch { return .failure(.invalidURL(error)) }
        var subject = canonical.subject
        var source = url
        let layout = canonical.layout
        return subject.withUTF8 { subjectBytes in
            source.withUTF8 { sourceBytes in
                let set = candidateSets[candidateSetIndex(layout, subjectBytes)]
                let scratch = MatchScratch.current(minimumPairs: ovectorPairs)
                let spare = scratch.subjectBuffer(capacity: max(sourceBytes.count, 1)).baseAddress!
                var found: [RouteMatch] = []
                for order in set.routes {
                    let route = routes[order]
                    let rc = route.pattern.match(subjectBytes, scratch: scratch, context: limits)
                    if rc == PCRE2_ERROR_NOMATCH { continue }
                    guard rc > 0 else { return .failure(failure(rc, near: order, pattern: route.pattern)) }
                    // Read before the query rules run their own patterns with the thread's match data.
                    let captures = CaptureSpans(ovector: scratch.ovector, groupBase: 0, count: route.groupNames.count)
                    guard accepts(order, context: context, url: sourceBytes, query: layout.queryRange, spare: spare, scratch: scratch) else {
                        continue
                    }
                    let hit = RouteHit(route: Unmanaged.passUnretained(route), url: MatchedURL(layout: layout, hasNoEscapes: false),
                                       captures: captures)
                    found.append(RouteMatch(route: route, source: url, hit: hit.movedOntoURL(subject: subjectBytes, layout: layout,
                                                                                            url: sourceBytes)))
                }
                return found.isEmpty ? .failure(.noRoute(candidates: set.routes.count)) : .success(found)
            }
        }
    }
}

extension RouteTableHolder {
    /// Every route of the current table that takes `url`, in the order routing tries them (see
    /// `RouteTable.matches`).
    public func matches(_ url: String, context: TapContext = .any) -> Result<[RouteMatch], RoutingFailure> {
        table.matches(url, context: context)
    }
}
