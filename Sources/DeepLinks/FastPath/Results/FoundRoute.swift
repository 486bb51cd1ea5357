/// What `RouteTable.find` tells `withMatch`, inlined in its caller: the route (not retained), what
/// a match keeps of the URL's layout and where the route's groups matched; or, with no route, how
/// many candidates were tried.
///
/// Four words, so that it comes back in registers and the caller builds its `RouteMatchView` from
/// them directly. A larger value (an enum with a payload, an optional route beside the rest) is
/// returned through memory, written a word at a time, and the caller's first wider copy of it
/// waits for those narrower stores to complete (a load cannot take its bytes from several pending
/// stores): a stall on every match.
@usableFromInline
struct FoundRoute {
    /// The route's address, whose lowest two bits are clear (objects are aligned); or, for a
    /// failure, `noRouteTag` with the candidates tried above `candidatesShift`, or `otherFailureBits`.
    @usableFromInline let routeBits: UInt
    @usableFromInline let url: MatchedURL
    @usableFromInline let captures: CaptureSpans

    /// The bit set in `routeBits` for every failure (never in a route's address). Computed, so that
    /// `route`, inlined into other modules, reads a constant rather than a global.
    @inlinable static var failureBit: UInt { 0b01 }
    /// The low two bits of `routeBits` when no route matched.
    static let noRouteTag: UInt = 0b01
    /// `routeBits` when matching failed in another way.
    static let otherFailureBits: UInt = 0b11
    /// Where the number of candidates starts in `routeBits` when no route matched.
    static let candidatesShift: UInt = 2

    @inline(__always)
    init(route: Unmanaged<Route>, url: MatchedURL, captures: CaptureSpans) {
        self.routeBits = UInt(bitPattern: route.toOpaque())
        self.url = url
        self.captures = captures
    }

    /// No route matched; `candidates` were tried.
    @inline(__always)
    init(noRoute candidates: Int) {
        self.routeBits = UInt(truncatingIfNeeded: candidates) &<< Self.candidatesShift | Self.noRouteTag
        self.url = .empty
        self.captures = .noGroups
    }

    /// Matching failed in another way (an invalid URL, a match limit, a PCRE2 error): the caller
    /// asks `RouteTable.failure` for the reason, which routes the URL again.
    static var otherFailure: FoundRoute { FoundRoute(routeBits: otherFailureBits) }

    @inline(__always)
    private init(routeBits: UInt) {
        self.routeBits = routeBits
        self.url = .empty
        self.captures = .noGroups
    }

    /// The matched route, or nil when none matched.
    @inlinable
    var route: Unmanaged<Route>? {
        guard routeBits & Self.failureBit == 0, let pointer = UnsafeRawPointer(bitPattern: routeBits) else { return nil }
        return Unmanaged.fromOpaque(pointer)
    }

    /// The candidates tried, when no route matched; nil otherwise.
    var candidates: Int? {
        routeBits & Self.otherFailureBits == Self.noRouteTag ? Int(truncatingIfNeeded: routeBits &>> Self.candidatesShift) : nil
    }
}
