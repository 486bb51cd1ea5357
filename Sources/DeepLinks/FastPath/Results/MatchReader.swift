import CPCRE2

/// Reads a match's parameters and query items from the URL's bytes, borrowed from whoever holds
/// them: a `RouteMatch` lends its string's bytes for one read, a `RouteMatchView` the bytes of the
/// URL being routed. Nothing here owns anything, so reading counts no references.
@usableFromInline
struct MatchReader {
    /// The matched route, kept alive by the `RouteMatch` or the table lending the view.
    @usableFromInline let route: Unmanaged<Route>
    /// The URL's UTF-8 as given.
    @usableFromInline let source: UnsafeBufferPointer<UInt8>
    /// The subject's length and where the query is.
    @usableFromInline let url: MatchedURL
    /// Where the route's groups matched in the subject.
    @usableFromInline let captures: CaptureSpans

    @inlinable
    init(route: Unmanaged<Route>, source: UnsafeBufferPointer<UInt8>, url: MatchedURL, captures: CaptureSpans) {
        self.route = route
        self.source = source
        self.url = url
        self.captures = captures
    }

    /// Path parameters (the named groups that took part), decoded, in pattern order.
    var pathParameters: [PathParameter] {
        route._withUnsafeGuaranteedRef { route in
            let names = route.groupNames
            guard !names.isEmpty else { return [] }
            if captures.isComplete, url.hasNoEscapes {
                // The usual case: each value is the URL's own bytes.
                var parameters: [PathParameter] = []
                parameters.reserveCapacity(names.count)
                for (index, name) in names.enumerated() {
                    guard let name, let span = captures.span(index) else { continue }
                    parameters.append(PathParameter(name: name, value: CanonicalURL.string(source, span)))
                }
                return parameters
            }
            return withSubject { subject in
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
    }

    /// The value of path parameter `name`, if it took part in the match.
    @inline(__always)
    func parameter(_ name: String) -> String? {
        switch route._withUnsafeGuaranteedRef({ $0.group(named: name) }) {
        case let .single(index): return value(ofGroup: index)
        case .absent: return nil
        case .repeated: return Self.parameterAmongRepeatedNames(name, route, source, url, captures)
        }
    }

    /// `parameter` when groups share names (static, given the reader's parts, like `valueDecoding`).
    @inline(never)
    private static func parameterAmongRepeatedNames(_ name: String, _ route: Unmanaged<Route>, _ source: UnsafeBufferPointer<UInt8>,
                                                    _ url: MatchedURL, _ captures: CaptureSpans) -> String? {
        let reader = MatchReader(route: route, source: source, url: url, captures: captures)
        return route._withUnsafeGuaranteedRef { route in firstValue(named: name, of: route) { reader.value(ofGroup: $0) } }
    }

    /// The first non-nil `value` of a group of `route` named `name` (names may repeat, with `(?J)`).
    @inline(__always)
    static func firstValue(named name: String, of route: Route, _ value: (Int) -> String?) -> String? {
        let names = route.groupNames
        var index = 0
        while index < names.count {
            if names[index] == name, let found = value(index) { return found }
            index += 1
        }
        return nil
    }

    /// The decoded value of group `index + 1`, or nil when it did not take part.
    @inline(__always)
    func value(ofGroup index: Int) -> String? {
        if captures.isComplete, url.hasNoEscapes {
            // The usual case: the URL's own bytes, with nothing to decode.
            guard let span = captures.span(index) else { return nil }
            return CanonicalURL.string(source, span)
        }
        return Self.valueDecoding(ofGroup: index, route, source, url, captures)
    }

    /// `value(ofGroup:)` for a value with escapes or a match whose spans are not kept. Static, and
    /// given the reader's parts: a method (or a reader argument) takes the reader's address, so
    /// every caller, even on the usual path that never calls this, would copy its reader to memory
    /// first, in sixteen-byte pieces that wait for the narrower stores that had just made the
    /// reader (a load cannot take its bytes from several pending stores).
    @inline(never)
    private static func valueDecoding(ofGroup index: Int, _ route: Unmanaged<Route>, _ source: UnsafeBufferPointer<UInt8>,
                                      _ url: MatchedURL, _ captures: CaptureSpans) -> String? {
        let reader = MatchReader(route: route, source: source, url: url, captures: captures)
        return reader.withSubject { subject in
            let span = reader.captures.isComplete
                ? reader.captures.span(index) : reader.route._withUnsafeGuaranteedRef { spanAgain(index, $0, in: subject) }
            return span.map { CanonicalURL.unescapeSubject(subject, $0) }
        }
    }

    /// All query items of the URL, decoded, in order.
    var queryItems: [QueryItem] {
        guard let query = url.queryRange(in: source) else { return [] }
        return QueryParser.parse(source, from: query.lowerBound, to: query.upperBound)
    }

    /// The values of the query items named `name` (only the first when `first`), in order.
    func queryValues(_ name: String, first: Bool) -> [String] {
        guard let query = url.queryRange(in: source) else { return [] }
        return QueryParser.values(named: name, in: source, from: query.lowerBound, to: query.upperBound, first: first)
    }

    /// The URL as a string (a copy of its bytes).
    var sourceString: String { String(decoding: source, as: UTF8.self) }

    /// Too many groups to keep: the route's own pattern finds the same ones again (it is the
    /// alternative that won, anchored at both ends, so it backtracks the same way).
    @inline(never)
    private static func spanAgain(_ index: Int, _ route: Route, in subject: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let scratch = MatchScratch.current(minimumPairs: route.pattern.captureCount + 1)
        let rc = route.pattern.match(subject, scratch: scratch, context: nil)
        precondition(rc > 0, "a matched route's pattern no longer matches its subject: \(rc)")
        return scratch.span(ofGroup: index + 1)
    }

    /// Calls `body` with the canonical subject: the URL's own bytes when canonicalization changed
    /// none of them, or the subject derived again into memory of its own (not the thread's buffer,
    /// which a match made while reading would overwrite).
    @inline(__always)
    private func withSubject<Value>(_ body: (UnsafeBufferPointer<UInt8>) -> Value) -> Value {
        if url.isVerbatim { return body(UnsafeBufferPointer(start: source.baseAddress, count: url.length)) }
        return withSubjectAgain(body)
    }

    @inline(never)
    private func withSubjectAgain<Value>(_ body: (UnsafeBufferPointer<UInt8>) -> Value) -> Value {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(source.count, 1)) { buffer in
            guard let again = try? MatchedURL.rederiving.layout(source, into: buffer), again.length == url.length else {
                preconditionFailure("a routed URL no longer canonicalizes to the same subject")
            }
            return body(UnsafeBufferPointer(rebasing: buffer[0..<again.length]))
        }
    }
}
