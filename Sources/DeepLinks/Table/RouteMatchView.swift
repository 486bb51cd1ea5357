/// A match lent by `RouteTable.withMatch` for the length of one closure: the same answers as a
/// `RouteMatch`, read from the URL and the route the call borrows.
///
/// Making one holds nothing: no reference is counted and nothing is allocated, which is what a
/// caller routing many URLs (tap analytics, a link checker) wants when it reads a little of each.
/// It cannot be copied, so it cannot outlive the closure it is lent to; call `owned()` for a
/// `RouteMatch` to keep.
public struct RouteMatchView: ~Copyable {
    @usableFromInline let reader: MatchReader

    @inlinable
    init(_ reader: MatchReader) { self.reader = reader }

    /// The matched route.
    public var route: Route { reader.route.takeUnretainedValue() }
    /// The matched route's name.
    @inlinable public var routeName: String { reader.route._withUnsafeGuaranteedRef { $0.name } }
    /// What the app opens.
    @inlinable public var target: String { reader.route._withUnsafeGuaranteedRef { $0.target } }

    /// Path parameters (the pattern's named groups that took part in the match), decoded, in
    /// pattern order.
    public var pathParameters: [PathParameter] { reader.pathParameters }

    /// Path parameters by name.
    public var parameters: [String: String] { PathParameter.byName(reader.pathParameters) }

    /// The value of path parameter `name`, if it took part in the match.
    public func parameter(_ name: String) -> String? { reader.parameter(name) }

    /// All query items of the URL, decoded, in order (also those without a rule).
    public var queryItems: [QueryItem] { reader.queryItems }

    /// The values of the query items named `name`, in order.
    public func queryValues(_ name: String) -> [String] { reader.queryValues(name, first: false) }

    /// The first value of the query item `name`, if any.
    public func queryValue(_ name: String) -> String? { reader.queryValues(name, first: true).first }

    /// The URL in canonical form.
    public var canonicalURL: CanonicalURL { owned().canonicalURL }

    /// The match as a value of its own, to keep after the closure returns (it copies the URL).
    public func owned() -> RouteMatch {
        RouteMatch(route: route, source: reader.sourceString, url: reader.url, captures: reader.captures)
    }
}
