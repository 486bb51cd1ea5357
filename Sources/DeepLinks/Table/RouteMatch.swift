/// The result of routing a URL: which route, what it opens, and the parameters.
public struct RouteMatch: Sendable, Hashable {
    /// The matched route.
    public let route: Route
    /// Path parameters (the pattern's named groups that took part in the match), decoded, in
    /// pattern order.
    public let pathParameters: [PathParameter]
    /// The URL in canonical form.
    public let canonicalURL: CanonicalURL

    /// The matched route's name.
    public var routeName: String { route.name }
    /// What the app opens.
    public var target: String { route.target }
    /// Path parameters by name.
    public var parameters: [String: String] {
        Dictionary(pathParameters.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
    /// The value of path parameter `name`, if it took part in the match.
    public func parameter(_ name: String) -> String? { pathParameters.first { $0.name == name }?.value }
    /// All query items of the URL, decoded, in order (also those without a rule).
    public var queryItems: [QueryItem] { canonicalURL.queryItems }
    /// The values of the query items named `name`, in order.
    public func queryValues(_ name: String) -> [String] { canonicalURL.queryValues(name) }
    /// The first value of the query item `name`, if any.
    public func queryValue(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }

    public static func == (lhs: RouteMatch, rhs: RouteMatch) -> Bool {
        lhs.route === rhs.route && lhs.pathParameters == rhs.pathParameters && lhs.canonicalURL == rhs.canonicalURL
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(route.name)
        hasher.combine(pathParameters)
        hasher.combine(canonicalURL)
    }
}

/// One decoded path parameter.
public struct PathParameter: Sendable, Hashable {
    /// The named group's name.
    public let name: String
    /// The decoded value (`%2F` is `/`).
    public let value: String
}

/// Why a URL matched no route.
public enum RoutingFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL has no canonical form.
    case invalidURL(CanonicalizationFailure)
    /// No candidate route matched; `candidates` routes were tried after dispatch.
    case noRoute(candidates: Int)
    /// A pattern exceeded the match limit, so matching stopped; `route` is the route whose pattern
    /// (or whose chunk starting with it) was running.
    case matchLimitExceeded(route: String)
    /// PCRE2 failed in some other way while matching.
    case matchError(PCRE2Error)

    public var description: String {
        switch self {
        case let .invalidURL(reason): "invalid URL: \(reason)"
        case let .noRoute(candidates): "no route matches (\(candidates) candidate\(candidates == 1 ? "" : "s") tried)"
        case let .matchLimitExceeded(route): "match limit exceeded while matching near route `\(route)`"
        case let .matchError(error): "matching failed: \(error)"
        }
    }
}
