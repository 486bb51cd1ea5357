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
    @inlinable
    public func withMatch<Value, Failure: Error>(_ url: String, context: TapContext = .any,
                                                 _ body: (borrowing RouteMatchView) throws(Failure) -> Value) throws(Failure)
        -> Result<Value, RoutingFailure> {
        var outcome: Result<Value, Failure>?
        if let failure = lend(url, context: context, to: { view in
            do throws(Failure) { outcome = .success(try body(view)) } catch { outcome = .failure(error) }
        }) {
            return .failure(failure)
        }
        guard let outcome else { preconditionFailure("a match was lent without calling its reader") }
        return .success(try outcome.get())
    }

    /// Routes `url` and calls `body` with the match; returns the failure when nothing matched.
    /// (Not generic, so that it is compiled here, whatever `withMatch` is specialized for.)
    @usableFromInline
    func lend(_ url: String, context: TapContext, to body: (borrowing RouteMatchView) -> Void) -> RoutingFailure? {
        if let failure = url.utf8.withContiguousStorageIfAvailable({ lend(bytes: $0, context: context, to: body) }) { return failure }
        return lendCopying(url, context: context, to: body)
    }

    /// `lend` for a string whose UTF-8 is not contiguous (bridged), copied first. (Out of line, so
    /// that the routing inlined in `lend` is there once.)
    @inline(never)
    private func lendCopying(_ url: String, context: TapContext, to body: (borrowing RouteMatchView) -> Void) -> RoutingFailure? {
        var source = url
        return source.withUTF8 { lend(bytes: $0, context: context, to: body) }
    }

    @inline(__always)
    private func lend(bytes: UnsafeBufferPointer<UInt8>, context: TapContext, to body: (borrowing RouteMatchView) -> Void)
        -> RoutingFailure? {
        switch hit(bytes: bytes, context: context) {
        case let .success(hit):
            body(RouteMatchView(MatchReader(route: plan.routes[hit.order].route, source: bytes, url: hit.url, captures: hit.captures)))
            return nil
        case let .failure(failure):
            return failure
        }
    }
}
