import CPCRE2

/// The result of routing a URL: which route, what it opens, and the parameters.
///
/// A match is cheap to make: it keeps the URL, where the route's groups matched, and where the
/// query is, and decodes parameters and query items only when they are read. Each read of
/// `pathParameters`, `parameters` or `parameter(_:)` decodes again; keep the value if you read it often.
public struct RouteMatch: Sendable, Hashable {
    /// The matched route.
    public let route: Route
    /// The URL as given.
    @usableFromInline let source: String
    /// The subject's length and where the query is.
    @usableFromInline let url: MatchedURL
    /// Where the route's groups matched in the subject.
    @usableFromInline let captures: CaptureSpans

    @inlinable
    init(route: Route, source: String, url: MatchedURL, captures: CaptureSpans) {
        self.route = route
        self.source = source
        self.url = url
        self.captures = captures
    }

    @inline(__always)
    init(route: Route, source: String, hit: RouteHit) {
        self.init(route: route, source: source, url: hit.url, captures: hit.captures)
    }

    /// The matched route's name.
    @inlinable public var routeName: String { route.name }
    /// What the app opens.
    @inlinable public var target: String { route.target }

    /// Path parameters (the pattern's named groups that took part in the match), decoded, in
    /// pattern order.
    public var pathParameters: [PathParameter] { withReader { $0.pathParameters } }

    /// Path parameters by name.
    public var parameters: [String: String] { PathParameter.byName(pathParameters) }

    /// The value of path parameter `name`, if it took part in the match.
    @inlinable
    public func parameter(_ name: String) -> String? {
        // Inlined, so that the caller passes the match's fields, read one by one, instead of the
        // match's address: a caller that has just taken the match out of `match`'s `Result` copied
        // it to memory for that, in sixteen-byte pieces that waited for `match`'s narrower stores.
        Self.parameter(name, route, source, url, captures)
    }

    /// `parameter(_:)`, given the match's fields. (The switch on the group is `MatchReader`'s too;
    /// here the usual value is read from the string's bytes without a reader: through one, reading
    /// through `match` took 3 ns more a URL.)
    @usableFromInline
    static func parameter(_ name: String, _ route: Route, _ source: String, _ url: MatchedURL, _ captures: CaptureSpans) -> String? {
        switch route.group(named: name) {
        case let .single(index): return value(ofGroup: index, route, source, url, captures)
        case .absent: return nil
        case .repeated: return MatchReader.firstValue(named: name, of: route) { value(ofGroup: $0, route, source, url, captures) }
        }
    }

    /// The decoded value of group `index + 1`, or nil when it did not take part.
    @inline(__always)
    private static func value(ofGroup index: Int, _ route: Route, _ source: String, _ url: MatchedURL, _ captures: CaptureSpans) -> String? {
        if captures.isComplete, url.hasNoEscapes {
            // The usual case: the URL's own bytes, with nothing to decode.
            guard let span = captures.span(index) else { return nil }
            if let value = source.utf8.withContiguousStorageIfAvailable({ CanonicalURL.string($0, span) }) {
                return value
            }
        }
        return withReader(source, Unmanaged.passUnretained(route), url, captures) { $0.value(ofGroup: index) }
    }

    /// The URL in canonical form.
    public var canonicalURL: CanonicalURL {
        do {
            return try MatchedURL.rederiving.canonicalize(source)
        } catch {
            preconditionFailure("a routed URL no longer canonicalizes: \(error)")
        }
    }

    /// All query items of the URL, decoded, in order (also those without a rule).
    public var queryItems: [QueryItem] { withReader { $0.queryItems } }

    /// The values of the query items named `name`, in order.
    @inlinable
    public func queryValues(_ name: String) -> [String] { Self.queryValues(name, first: false, route, source, url) }

    /// The first value of the query item `name`, if any.
    @inlinable
    public func queryValue(_ name: String) -> String? { Self.queryValues(name, first: true, route, source, url).first }

    /// `queryValues(_:)` (only the first value when `first`), given the match's fields (inlined
    /// callers pass fields, not the match's address: see `parameter(_:)`).
    @usableFromInline
    static func queryValues(_ name: String, first: Bool, _ route: Route, _ source: String, _ url: MatchedURL) -> [String] {
        withReader(source, Unmanaged.passUnretained(route), url, .noGroups) { $0.queryValues(name, first: first) }
    }

    /// Calls `body` with a reader over this match's URL bytes.
    @inline(__always)
    private func withReader<Value>(_ body: (MatchReader) -> Value) -> Value {
        // Nothing here captures `self`: a closure that did would copy the match.
        Self.withReader(source, Unmanaged.passUnretained(route), url, captures, body)
    }

    /// Calls `body` with a reader over `source`'s bytes.
    @inline(__always)
    private static func withReader<Value>(_ source: String, _ route: Unmanaged<Route>, _ url: MatchedURL, _ captures: CaptureSpans,
                                          _ body: (MatchReader) -> Value) -> Value {
        // Not `withUTF8Bytes`: with one closure for both ways, reading everything took 4 ns more.
        if let value = source.utf8.withContiguousStorageIfAvailable({
            body(MatchReader(route: route, source: $0, url: url, captures: captures))
        }) {
            return value
        }
        return withReaderCopying(source, route, url, captures, body)
    }

    /// `withReader` for a string whose UTF-8 is not contiguous (bridged), copied first.
    @inline(never)
    private static func withReaderCopying<Value>(_ source: String, _ route: Unmanaged<Route>, _ url: MatchedURL, _ captures: CaptureSpans,
                                                 _ body: (MatchReader) -> Value) -> Value {
        var source = source
        return source.withUTF8 { body(MatchReader(route: route, source: $0, url: url, captures: captures)) }
    }

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

    /// `parameters` (in pattern order) by name: of a name two groups share, the first that took part.
    public static func byName(_ parameters: [PathParameter]) -> [String: String] {
        Dictionary(parameters.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Why a URL matched no route.
public enum RoutingFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL has no canonical form.
    indirect case invalidURL(CanonicalizationFailure)
    /// No candidate route matched; `candidates` routes were tried after dispatch.
    case noRoute(candidates: Int)
    /// A pattern exceeded the match limit, so matching stopped; `route` is the route whose pattern
    /// (or whose chunk starting with it) was running.
    case matchLimitExceeded(route: String)
    /// PCRE2 failed in some other way while matching.
    indirect case matchError(PCRE2Error)

    public var description: String {
        switch self {
        case let .invalidURL(reason): "invalid URL: \(reason)"
        case let .noRoute(candidates): "no route matches (\(candidates) candidate\(candidates == 1 ? "" : "s") tried)"
        case let .matchLimitExceeded(route): "match limit exceeded while matching near route `\(route)`"
        case let .matchError(error): "matching failed: \(error)"
        }
    }
}
