/// What routing a URL tells its caller, as plain values: the route and what it read of the URL, or
/// why no route took the URL.
///
/// Every way of routing can say it: `RouteTable.match` (`init(_:)` of its result), a match lent by
/// `withMatch` or `withMatch(utf8:)` (`init(_:)` of the view inside the closure, then of the lent
/// result), and `RouteTable.referenceMatch`, which answers with it directly. So they can be
/// compared: the tests and the `RouteReferenceFuzzer` fuzz target hold the fast ways to the
/// reference.
///
/// A failure leaves out what depends on how routing ran rather than on the URL: how many candidate
/// routes were tried (dispatch narrows them; the reference tries every route) and which route was
/// running when a pattern reached the match limit.
public enum RoutingAnswer: Sendable, Hashable, CustomStringConvertible {
    /// Route `route` took the URL, with its path parameters (decoded, in pattern order) and the
    /// URL's query items (decoded, in URL order, also those without a rule).
    case matched(route: String, pathParameters: [PathParameter], queryItems: [QueryItem])
    /// The URL has no canonical form.
    case invalidURL(CanonicalizationFailure)
    /// No route takes the URL.
    case noRoute
    /// Matching stopped: a pattern reached the match limit (`PCRE2Error.Code.matchLimit`), or PCRE2
    /// failed with another code.
    case matchFailed(PCRE2Error.Code)

    /// What the owned match `match` says.
    public init(_ match: RouteMatch) {
        self = .matched(route: match.routeName, pathParameters: match.pathParameters, queryItems: match.queryItems)
    }

    /// What the lent match `view` says.
    public init(_ view: borrowing RouteMatchView) {
        self = .matched(route: view.routeName, pathParameters: view.pathParameters, queryItems: view.queryItems)
    }

    /// What the routing failure `failure` says.
    public init(_ failure: RoutingFailure) {
        switch failure {
        case let .invalidURL(reason): self = .invalidURL(reason)
        case .noRoute: self = .noRoute
        case .matchLimitExceeded: self = .matchFailed(.matchLimit)
        case let .matchError(error): self = .matchFailed(error.code)
        }
    }

    /// What `match`'s result says.
    public init(_ result: Result<RouteMatch, RoutingFailure>) {
        switch result {
        case let .success(match): self.init(match)
        case let .failure(failure): self.init(failure)
        }
    }

    /// What a lent match's result says, when the closure answered with the view's answer:
    /// `RoutingAnswer(table.withMatch(url) { RoutingAnswer($0) })`.
    public init(_ lent: Result<RoutingAnswer, RoutingFailure>) {
        switch lent {
        case let .success(answer): self = answer
        case let .failure(failure): self.init(failure)
        }
    }

    public var description: String {
        switch self {
        case let .matched(route, parameters, items):
            let read = parameters.map { "\($0.name)=\($0.value)" } + items.map { "?\($0)" }
            return read.isEmpty ? route : "\(route) \(read.joined(separator: " "))"
        case let .invalidURL(reason): return "invalid URL: \(reason)"
        case .noRoute: return "no route"
        case let .matchFailed(code): return "matching failed: \(PCRE2Error(code: code.rawValue).message)"
        }
    }
}
