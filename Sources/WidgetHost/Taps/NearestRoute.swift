import DeepLinks
import Foundation

/// The route a broken link most likely meant, from `RouteTable.explain`.
///
/// "Nearest" is the candidate that got furthest, in this order:
/// 1. a route that matches once the tap's source/family constraints are ignored (`constraintsExcluded`);
/// 2. a candidate whose pattern matched but whose query rules refused the URL (`queryRejected`, with the rule);
/// 3. otherwise the route whose pattern's literal prefix shares the most leading characters with the canonical
///    URL (`sharedPrefix`), ties going to the route tried first. Every route of the table is considered here,
///    not only the dispatch candidates, since a typo in the first path segment changes the dispatch.
public struct NearestRoute: Sendable, Hashable, Codable {
    /// How far the route got.
    public enum Reason: Sendable, Hashable, Codable {
        /// The route matches, but its `sources`/`families` exclude such taps.
        case constraintsExcluded
        /// The pattern matches; a query rule refuses the URL.
        case queryRejected(String)
        /// The pattern's literal prefix shares this many leading characters with the canonical URL.
        case sharedPrefix(Int)
    }

    /// The route's name.
    public var routeName: String
    /// Its pattern.
    public var pattern: String
    /// Why it is the nearest.
    public var reason: Reason

    /// A short sentence for people.
    public var explanation: String {
        switch reason {
        case .constraintsExcluded: "matches, but the route's sources/families exclude the tap"
        case .queryRejected(let why): "pattern matches, but \(why)"
        case .sharedPrefix(let count): "shares the first \(count) characters"
        }
    }

    /// The nearest route for `url` in `table`, or nil when the URL has no canonical form or the table is empty.
    public static func find(for url: String, in table: RouteTable) -> NearestRoute? {
        let explanation = table.explain(url)
        guard case .success(let canonical) = explanation.canonical else { return nil }
        if let winner = explanation.candidates.first(where: { $0.outcome == .won }) {
            return NearestRoute(routeName: winner.routeName, pattern: winner.pattern, reason: .constraintsExcluded)
        }
        for candidate in explanation.candidates {
            if case .queryRejected(let why) = candidate.outcome {
                return NearestRoute(routeName: candidate.routeName, pattern: candidate.pattern,
                                    reason: .queryRejected(why))
            }
        }
        let subject = Array(canonical.subject.lowercased().utf8)
        var best: NearestRoute?
        var bestLength = -1
        for route in table.routes {
            let prefix = Array(literalPrefix(of: route.definition.pattern).lowercased().utf8)
            let shared = zip(subject, prefix).prefix { $0 == $1 }.count
            if shared > bestLength {
                bestLength = shared
                best = NearestRoute(routeName: route.name, pattern: route.definition.pattern,
                                    reason: .sharedPrefix(shared))
            }
        }
        return best
    }

    /// The characters every match of `pattern` starts with: literal characters (and escaped punctuation) up to
    /// the first regex construct; a literal followed by a quantifier is optional, so it ends the prefix.
    public static func literalPrefix(of pattern: String) -> String {
        let characters = Array(pattern)
        let special: Set<Character> = [".", "[", "]", "(", ")", "{", "}", "*", "+", "?", "|", "^", "$"]
        let quantifiers: Set<Character> = ["*", "+", "?", "{"]
        var prefix = ""
        var index = 0
        while index < characters.count {
            var character = characters[index]
            var width = 1
            if character == "\\" {
                guard index + 1 < characters.count, !characters[index + 1].isLetter,
                      !characters[index + 1].isNumber else { break }
                character = characters[index + 1]
                width = 2
            } else if special.contains(character) {
                break
            }
            if index + width < characters.count, quantifiers.contains(characters[index + width]) { break }
            prefix.append(character)
            index += width
        }
        return prefix
    }
}
