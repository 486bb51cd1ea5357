/// What one step of matching knows about the single route of a candidate set that a subject can
/// still match: that route's order, or one of the states below, each meaning one thing.
///
/// The states take the place of negative route orders. Slots of `SegmentCountIndex` and
/// `MatchPlan.loneRoutes` store one as they would a bare `Int32` (same size and layout), and
/// testing for a route is one comparison with zero, so naming them costs matching nothing.
///
/// Dispatch reads the set's stored value (`notAlone` or a route) from the slot it already loads,
/// or leaves it `unread`; `MatchPlan.loneCandidate` then reads it when needed, and asks the
/// `CandidateSieve` about a set that is `notAlone`, which answers a route, `several` or `noneLeft`.
struct LoneRoute: Equatable {
    /// The route's order, when not negative; a state's code otherwise.
    private let rawValue: Int32

    private init(rawValue: Int32) { self.rawValue = rawValue }

    /// The route of order `order`.
    init(order: Int) { rawValue = Int32(truncatingIfNeeded: order) }

    /// Stored for a candidate set that has several routes, or none: only the sieve can tell a
    /// subject's one route.
    static var notAlone: LoneRoute { LoneRoute(rawValue: -1) }
    /// Dispatch did not read the set's slot (a bucket past the slots, or a URL that took the full
    /// canonical check): `MatchPlan.loneRoutes` holds the stored value.
    static var unread: LoneRoute { LoneRoute(rawValue: -2) }
    /// The sieve left several routes of the set: its `(*MARK)` chunks decide.
    static var several: LoneRoute { LoneRoute(rawValue: -3) }
    /// The sieve left no route of the set: the subject matches none.
    static var noneLeft: LoneRoute { LoneRoute(rawValue: -4) }

    /// What `packed` adds to the raw value: the values `VerbatimDispatch` carries (a route,
    /// `.notAlone`, `.unread`) then pack to at least 0, and `.unread` to 0, so that a test for
    /// `.unread` after unpacking compiles to a test of the packed bits for zero.
    private static let packingBias: Int32 = 2

    /// Whether this is a route rather than a state.
    var isRoute: Bool { rawValue >= 0 }

    /// The route's order (only when `isRoute`).
    var order: Int { Int(rawValue) }

    /// The value as packed by `VerbatimDispatch`, for a route (below 2³¹ − 2), `.notAlone` or
    /// `.unread` only (the sieve's answers are never packed).
    var packed: UInt32 { UInt32(bitPattern: rawValue &+ Self.packingBias) }

    /// The value `packed` packed.
    init(packed: UInt32) { rawValue = Int32(bitPattern: packed) &- Self.packingBias }
}
