/// What `RouteTable.find` tells `withMatch`, inlined in its caller: the route (not retained), what
/// a match keeps of the URL's layout and where the route's groups matched; or, with no route, how
/// many candidates were tried.
///
/// Four words, so that it comes back in registers: the caller builds its `RouteMatchView` from
/// them without a copy through memory (`Benchmarks/README.md`, ninth pass).
@usableFromInline
struct FoundRoute {
    /// The route's address (aligned, so its lowest bit is 0); for a failure, `1 | candidates << 2`
    /// when no route matched, `3` when matching failed in another way.
    @usableFromInline let routeBits: UInt
    @usableFromInline let url: MatchedURL
    @usableFromInline let captures: CaptureSpans

    @inline(__always)
    init(route: Unmanaged<Route>, url: MatchedURL, captures: CaptureSpans) {
        self.routeBits = UInt(bitPattern: route.toOpaque())
        self.url = url
        self.captures = captures
    }

    /// No route matched; `candidates` were tried.
    @inline(__always)
    init(noRoute candidates: Int) {
        self.routeBits = UInt(truncatingIfNeeded: candidates) &<< 2 | 1
        self.url = .empty
        self.captures = .noGroups
    }

    /// Matching failed in another way (an invalid URL, a match limit, a PCRE2 error): the caller
    /// asks `RouteTable.failure` for the reason, which routes the URL again.
    static var otherFailure: FoundRoute { FoundRoute(routeBits: 3) }

    @inline(__always)
    private init(routeBits: UInt) {
        self.routeBits = routeBits
        self.url = .empty
        self.captures = .noGroups
    }

    /// The matched route, or nil when none matched.
    @inlinable
    var route: Unmanaged<Route>? {
        guard routeBits & 1 == 0, let pointer = UnsafeRawPointer(bitPattern: routeBits) else { return nil }
        return Unmanaged.fromOpaque(pointer)
    }

    /// The candidates tried, when no route matched; nil otherwise.
    var candidates: Int? { routeBits & 3 == 1 ? Int(truncatingIfNeeded: routeBits &>> 2) : nil }
}
