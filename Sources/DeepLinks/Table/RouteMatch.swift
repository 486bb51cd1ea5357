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
    let source: String
    /// Where the subject's parts and the URL's query are.
    let layout: CanonicalLayout
    /// The canonicalizer the URL went through, to derive the subject again when it is not verbatim.
    let canonicalizer: URLCanonicalizer
    /// Where the route's groups matched in the subject.
    let captures: CaptureSpans

    init(route: Route, source: String, layout: CanonicalLayout, canonicalizer: URLCanonicalizer, captures: CaptureSpans) {
        self.route = route
        self.source = source
        self.layout = layout
        self.canonicalizer = canonicalizer
        self.captures = captures
    }

    /// The matched route's name.
    public var routeName: String { route.name }
    /// What the app opens.
    public var target: String { route.target }

    /// Path parameters (the pattern's named groups that took part in the match), decoded, in
    /// pattern order.
    public var pathParameters: [PathParameter] {
        let route = route, captures = captures
        guard !route.groupNames.isEmpty else { return [] }
        return Self.withSubject(source, layout, canonicalizer) { subject in
            var parameters: [PathParameter] = []
            parameters.reserveCapacity(route.groupNames.count)
            for (index, name) in route.groupNames.enumerated() {
                guard let name, let span = Self.span(index, captures, route, in: subject) else { continue }
                parameters.append(PathParameter(name: name, value: CanonicalURL.unescapeSubject(subject, span)))
            }
            return parameters
        }
    }

    /// Path parameters by name.
    public var parameters: [String: String] {
        Dictionary(pathParameters.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The value of path parameter `name`, if it took part in the match.
    public func parameter(_ name: String) -> String? {
        let route = route, captures = captures
        let names = route.groupNames
        for index in names.indices where names[index] == name {
            let value = Self.withSubject(source, layout, canonicalizer) { subject in
                Self.span(index, captures, route, in: subject).map { CanonicalURL.unescapeSubject(subject, $0) }
            }
            if let value { return value }
        }
        return nil
    }

    /// The URL in canonical form: the subject routing already derived (canonicalizing again only when it is not
    /// the URL's own bytes), with the layout it found.
    public var canonicalURL: CanonicalURL {
        let source = source, layout = layout, canonicalizer = canonicalizer
        return Self.withSubject(source, layout, canonicalizer) { subject in
            CanonicalURL(source: source, subject: subject, layout: layout, canonicalizer: canonicalizer)
        }
    }

    /// All query items of the URL, decoded, in order (also those without a rule).
    public var queryItems: [QueryItem] {
        guard let query = layout.queryRange else { return [] }
        var source = source
        return source.withUTF8 { QueryParser.parse($0, from: query.lowerBound, to: query.upperBound) }
    }

    /// The values of the query items named `name`, in order.
    public func queryValues(_ name: String) -> [String] {
        guard let query = layout.queryRange else { return [] }
        var source = source
        return source.withUTF8 { QueryParser.values(named: name, in: $0, from: query.lowerBound, to: query.upperBound, first: false) }
    }

    /// The first value of the query item `name`, if any.
    public func queryValue(_ name: String) -> String? {
        guard let query = layout.queryRange else { return nil }
        var source = source
        return source.withUTF8 { QueryParser.values(named: name, in: $0, from: query.lowerBound, to: query.upperBound, first: true).first }
    }

    /// Where group `index + 1` of the route matched in `subject`, or nil if it did not take part.
    private static func span(_ index: Int, _ captures: CaptureSpans, _ route: Route, in subject: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        if captures.isComplete { return captures.span(index) }
        // Too many groups to keep: the route's own pattern finds the same ones again (it is the
        // alternative that won, anchored at both ends, so it backtracks the same way).
        let scratch = MatchScratch.current(minimumPairs: route.pattern.captureCount + 1)
        let rc = route.pattern.match(subject, scratch: scratch, context: nil)
        precondition(rc > 0, "a matched route's pattern no longer matches its subject: \(rc)")
        let start = scratch.ovector[2 * (index + 1)], end = scratch.ovector[2 * (index + 1) + 1]
        return start == cpcre2_unset() || end < start ? nil : start..<end
    }

    /// Calls `body` with the canonical subject of `source`: the URL's own bytes when
    /// canonicalization changed none of them, or the subject derived again.
    @inline(__always)
    private static func withSubject<Value>(_ source: String, _ layout: CanonicalLayout, _ canonicalizer: URLCanonicalizer,
                                           _ body: (UnsafeBufferPointer<UInt8>) -> Value) -> Value {
        if layout.isVerbatim,
           let value = source.utf8.withContiguousStorageIfAvailable({ body(UnsafeBufferPointer(rebasing: $0[0..<layout.length])) }) {
            return value
        }
        var source = source
        return source.withUTF8 { bytes in
            if layout.isVerbatim { return body(UnsafeBufferPointer(rebasing: bytes[0..<layout.length])) }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bytes.count, 1)) { buffer in
                guard let again = try? canonicalizer.layout(bytes, into: buffer), again.length == layout.length else {
                    preconditionFailure("a routed URL no longer canonicalizes to the same subject")
                }
                return body(UnsafeBufferPointer(rebasing: buffer[0..<again.length]))
            }
        }
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
