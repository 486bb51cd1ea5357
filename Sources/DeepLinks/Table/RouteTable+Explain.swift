import CPCRE2

/// How a URL was routed: the candidates the dispatch step chose, and what happened to each.
public struct RouteExplanation: Sendable, CustomStringConvertible {
    /// What happened to one candidate route.
    public enum Outcome: Sendable, Hashable, CustomStringConvertible {
        /// This route won.
        case won
        /// The route matches too, but `winner` comes first (priority, then file order).
        case shadowed(by: String)
        /// The pattern does not match the canonical subject.
        case patternMismatch
        /// The pattern matches but a query rule refuses the URL.
        case queryRejected(String)
        /// The pattern matches but the route's sources or families exclude the tap.
        case contextRejected
        /// The pattern hit the match limit.
        case matchLimitExceeded

        public var description: String {
            switch self {
            case .won: "WON"
            case let .shadowed(winner): "matches too, but `\(winner)` comes first"
            case .patternMismatch: "pattern does not match"
            case let .queryRejected(reason): "pattern matches, but \(reason)"
            case .contextRejected: "pattern matches, but the route's sources/families exclude this tap"
            case .matchLimitExceeded: "pattern hit the match limit"
            }
        }
    }

    /// One candidate route and its outcome.
    public struct Candidate: Sendable, Hashable {
        /// The route's name.
        public let routeName: String
        /// The route's pattern.
        public let pattern: String
        /// The route's priority.
        public let priority: Int
        /// What happened.
        public let outcome: Outcome
        /// The parameters the pattern captured, when it matched.
        public let parameters: [String: String]
    }

    /// The URL as given.
    public let url: String
    /// The canonical form, or why there is none.
    public let canonical: Result<CanonicalURL, CanonicalizationFailure>
    /// The dispatch key that selected the candidates (`myapp://task/*`).
    public let dispatchedOn: String
    /// The candidates, in the order they are tried.
    public let candidates: [Candidate]
    /// How many routes of the table dispatch ruled out without running their patterns.
    public let skippedByDispatch: Int

    /// The winning route's name, if any.
    public var winner: String? { candidates.first { $0.outcome == .won }?.routeName }

    public var description: String {
        var lines = ["url        \(url)"]
        switch canonical {
        case let .failure(reason):
            lines.append("no match: invalid URL: \(reason)")
            return lines.joined(separator: "\n")
        case let .success(canonical):
            lines.append("canonical  \(canonical.string)")
            lines.append("subject    \(canonical.subject)")
        }
        lines.append("dispatch   \(dispatchedOn): \(candidates.count) candidate(s), \(skippedByDispatch) route(s) skipped")
        for (index, candidate) in candidates.enumerated() {
            var line = "  \(index + 1). \(candidate.routeName)  [\(candidate.pattern)]"
            if candidate.priority != 0 { line += " priority \(candidate.priority)" }
            line += "\n     -> \(candidate.outcome)"
            if !candidate.parameters.isEmpty {
                line += " " + candidate.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            }
            lines.append(line)
        }
        lines.append(winner.map { "result     \($0)" } ?? "result     no route")
        return lines.joined(separator: "\n")
    }
}

extension RouteTable {
    /// Explains how `url` is routed: every candidate the dispatch step chose, tried one by one
    /// with the same rules as `match`, and why each failed, won, or was shadowed.
    public func explain(_ url: String, context: TapContext = .any) -> RouteExplanation {
        let canonical: CanonicalURL
        do { canonical = try canonicalizer.canonicalize(url) } catch {
            return RouteExplanation(url: url, canonical: .failure(error), dispatchedOn: "-", candidates: [], skippedByDispatch: routes.count)
        }
        var subject = canonical.subject
        var source = canonical.source
        return subject.withUTF8 { bytes in source.withUTF8 { sourceBytes in
            let set = candidateSets[candidateSetIndex(canonical.layout, bytes)]
            let scratch = MatchScratch.current(minimumPairs: ovectorPairs)
            let spare = scratch.subjectBuffer(capacity: max(sourceBytes.count, 1)).baseAddress!
            var winner: String?
            var candidates: [RouteExplanation.Candidate] = []
            for order in set.routes {
                let route = routes[order]
                let rc = route.pattern.match(bytes, scratch: scratch, context: limits)
                var parameters: [String: String] = [:]
                let outcome: RouteExplanation.Outcome
                if rc == PCRE2_ERROR_NOMATCH {
                    outcome = .patternMismatch
                } else if rc < 0 {
                    outcome = .matchLimitExceeded
                } else {
                    parameters = PathParameter.byName(extractParameters(route, groupBase: 0, scratch: scratch,
                                                                        subject: bytes))
                    if let violation = route.queryRuleViolation(sourceBytes, query: canonical.layout.queryRange, spare: spare,
                                                                scratch: scratch, limits: limits) {
                        outcome = .queryRejected(route.describe(violation, url: sourceBytes))
                    } else if !route.accepts(context) {
                        outcome = .contextRejected
                    } else if let winner {
                        outcome = .shadowed(by: winner)
                    } else {
                        winner = route.name
                        outcome = .won
                    }
                }
                candidates.append(.init(routeName: route.name, pattern: route.definition.pattern,
                                        priority: route.definition.priority, outcome: outcome, parameters: parameters))
            }
            return RouteExplanation(url: url, canonical: .success(canonical), dispatchedOn: set.label,
                                    candidates: candidates, skippedByDispatch: routes.count - set.routes.count)
        } }
    }
}
