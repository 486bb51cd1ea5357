extension RouteTable {
    /// Routes `url` and lends the match to `body`, which reads what it needs; returns what `body`
    /// returned, or why no route matched (then `body` is not called).
    ///
    /// The answers are those of `match(_:context:)`, but nothing is held: the view borrows the URL
    /// and the route for the length of `body`, so a match counts no references and allocates
    /// nothing (reading a parameter makes its string; a failure is described as `match` does). For callers that route many URLs and keep
    /// little of each; call `RouteMatchView.owned()` to keep a match.
    ///
    /// - Parameters:
    ///   - url: The URL to route.
    ///   - context: The tap's source and family, for routes constrained by them.
    ///   - body: Reads the match; may route other URLs.
    /// - Returns: `body`'s value, or the `RoutingFailure`.
    /// - Throws: What `body` throws.
    @inlinable @inline(__always)
    public func withMatch<Value, Failure: Error>(_ url: String, context: TapContext = .any,
                                                 _ body: (borrowing RouteMatchView) throws(Failure) -> Value) throws(Failure)
        -> Result<Value, RoutingFailure> {
        // Inlined in the caller, with `body`: the bytes are routed and lent as `withMatch(utf8:)` does.
        let routed = url.withUTF8Bytes { bytes -> Result<Result<Value, RoutingFailure>, Failure> in
            do throws(Failure) { return .success(try withMatch(utf8: bytes, context: context, body)) } catch { return .failure(error) }
        }
        return try routed.get()
    }

    /// Routes the URL whose UTF-8 is `utf8` and lends the match to `body`, as `withMatch(_:context:_:)`
    /// does for a `String`: for URLs read as bytes (a socket's buffer, a text column, a mapped log
    /// file), routed without making a `String` of each.
    ///
    /// Bytes that are not UTF-8 (before any `#`: the fragment is ignored) fail as
    /// `RoutingFailure.invalidURL(.notUTF8(offset:))`, with the offset of the first bad byte: a
    /// `String` cannot hold such bytes, these can. The view reads `utf8`, which must stay unchanged
    /// until `body` returns.
    ///
    /// - Parameters:
    ///   - utf8: The URL's bytes.
    ///   - context: The tap's source and family, for routes constrained by them.
    ///   - body: Reads the match; may route other URLs.
    /// - Returns: `body`'s value, or the `RoutingFailure`.
    /// - Throws: What `body` throws.
    @inlinable @inline(__always)
    public func withMatch<Value, Failure: Error>(utf8: UnsafeBufferPointer<UInt8>, context: TapContext = .any,
                                                 _ body: (borrowing RouteMatchView) throws(Failure) -> Value) throws(Failure)
        -> Result<Value, RoutingFailure> {
        let found = find(utf8, context: context)
        guard let route = found.route else { return .failure(failure(found, routingBytes: utf8, context: context)) }
        return .success(try body(RouteMatchView(MatchReader(route: route, source: utf8, url: found.url, captures: found.captures))))
    }
}
