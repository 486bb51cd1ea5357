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
    /// The subject's length, where the query is, and the canonicalizer's limits.
    let url: MatchedURL
    /// Where the route's groups matched in the subject.
    let captures: CaptureSpans

    @inline(__always)
    init(route: Route, source: String, layout: CanonicalLayout, canonicalizer: URLCanonicalizer, captures: CaptureSpans,
         hasNoEscapes: Bool) {
        self.route = route
        self.source = source
        self.url = MatchedURL(layout: layout, canonicalizer: canonicalizer, hasNoEscapes: hasNoEscapes)
        self.captures = captures
    }

    /// The matched route's name.
    public var routeName: String { route.name }
    /// What the app opens.
    public var target: String { route.target }

    /// Path parameters (the pattern's named groups that took part in the match), decoded, in
    /// pattern order.
    public var pathParameters: [PathParameter] {
        let names = route.groupNames
        guard !names.isEmpty else { return [] }
        let captures = captures, route = route
        return Self.withSubject(source, url) { subject in
            var parameters: [PathParameter] = []
            parameters.reserveCapacity(names.count)
            for (index, name) in names.enumerated() {
                guard let name, let span = captures.isComplete ? captures.span(index) : Self.spanAgain(index, route, in: subject)
                else { continue }
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
        let names = route.groupNames
        var index = 0
        while index < names.count {
            if names[index] == name {
                // Nothing here captures `self`: a closure that did would copy the match.
                let value: String?
                if captures.isComplete, url.hasNoEscapes {
                    // The usual case: the URL's own bytes.
                    guard let span = captures.span(index) else { index += 1; continue }
                    value = source.utf8.withContiguousStorageIfAvailable { CanonicalURL.string(UnsafeBufferPointer(rebasing: $0[span])) }
                        ?? Self.withSubject(source, url) { CanonicalURL.unescapeSubject($0, span) }
                } else if captures.isComplete {
                    value = captures.span(index).map { span in
                        Self.withSubject(source, url) { CanonicalURL.unescapeSubject($0, span) }
                    }
                } else {
                    value = Self.withSubject(source, url) { subject in
                        Self.spanAgain(index, route, in: subject).map { CanonicalURL.unescapeSubject(subject, $0) }
                    }
                }
                if let value { return value }
            }
            index += 1
        }
        return nil
    }

    /// The URL in canonical form.
    public var canonicalURL: CanonicalURL {
        do {
            return try url.canonicalizer.canonicalize(source)
        } catch {
            preconditionFailure("a routed URL no longer canonicalizes: \(error)")
        }
    }

    /// All query items of the URL, decoded, in order (also those without a rule).
    public var queryItems: [QueryItem] {
        guard let query = url.queryRange else { return [] }
        var source = source
        return source.withUTF8 { QueryParser.parse($0, from: query.lowerBound, to: query.upperBound) }
    }

    /// The values of the query items named `name`, in order.
    public func queryValues(_ name: String) -> [String] {
        guard let query = url.queryRange else { return [] }
        var source = source
        return source.withUTF8 { QueryParser.values(named: name, in: $0, from: query.lowerBound, to: query.upperBound, first: false) }
    }

    /// The first value of the query item `name`, if any.
    public func queryValue(_ name: String) -> String? {
        guard let query = url.queryRange else { return nil }
        var source = source
        return source.withUTF8 { QueryParser.values(named: name, in: $0, from: query.lowerBound, to: query.upperBound, first: true).first }
    }

    /// Too many groups to keep: the route's own pattern finds the same ones again (it is the
    /// alternative that won, anchored at both ends, so it backtracks the same way).
    @inline(never)
    private static func spanAgain(_ index: Int, _ route: Route, in subject: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let scratch = MatchScratch.current(minimumPairs: route.pattern.captureCount + 1)
        let rc = route.pattern.match(subject, scratch: scratch, context: nil)
        precondition(rc > 0, "a matched route's pattern no longer matches its subject: \(rc)")
        let start = scratch.ovector[2 * (index + 1)], end = scratch.ovector[2 * (index + 1) + 1]
        return start == cpcre2_unset() || end < start ? nil : start..<end
    }

    /// Calls `body` with the canonical subject: the URL's own bytes when canonicalization changed
    /// none of them, or the subject derived again.
    @inline(__always)
    private static func withSubject<Value>(_ source: String, _ url: MatchedURL, _ body: (UnsafeBufferPointer<UInt8>) -> Value) -> Value {
        let length = url.length
        if url.isVerbatim,
           let value = source.utf8.withContiguousStorageIfAvailable({ body(UnsafeBufferPointer(start: $0.baseAddress, count: length)) }) {
            return value
        }
        return Self.withSubjectAgain(source, url, body)
    }

    @inline(never)
    private static func withSubjectAgain<Value>(_ source: String, _ url: MatchedURL, _ body: (UnsafeBufferPointer<UInt8>) -> Value) -> Value {
        var source = source
        return source.withUTF8 { bytes in
            if url.isVerbatim { return body(UnsafeBufferPointer(rebasing: bytes[0..<url.length])) }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bytes.count, 1)) { buffer in
                guard let again = try? url.canonicalizer.layout(bytes, into: buffer), again.length == url.length else {
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
