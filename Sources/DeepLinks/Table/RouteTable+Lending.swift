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
        // Inlined in the caller, with `body`: what `find` found comes back in registers and
        // becomes the view in place (`FoundRoute`).
        var outcome: Result<Value, Failure>?
        let refused = url.withUTF8Bytes { bytes -> RoutingFailure? in
            let found = find(bytes, context: context)
            guard let route = found.route else { return failure(found, routing: url, context: context) }
            do throws(Failure) {
                outcome = .success(try body(RouteMatchView(MatchReader(route: route, source: bytes, url: found.url,
                                                                       captures: found.captures))))
            } catch {
                outcome = .failure(error)
            }
            return nil
        }
        if let refused { return .failure(refused) }
        guard let outcome else { preconditionFailure("a match was lent without calling its reader") }
        return .success(try outcome.get())
    }
}
