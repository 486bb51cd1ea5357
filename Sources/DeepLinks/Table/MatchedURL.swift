/// What a `RouteMatch` keeps of its URL's canonical layout and of the canonicalizer's limits, in
/// 32-bit fields, so that a match stays small to copy (the parts dispatch needed are left out).
///
/// Offsets fit without a check: `RouteTable` refuses URLs longer than `longestURL` bytes before
/// matching (no Swift string that long reaches a router in practice; the limit keeps the
/// truncating conversions exact rather than trapping).
struct MatchedURL: Sendable {
    /// The canonicalizer's limits as a match keeps them: capped at `UInt32.max` (a URL this long
    /// cannot be routed, so a cap changes no outcome when the subject is derived again). Made once
    /// per table, not per match.
    struct Limits: Sendable {
        let maxURLLength: UInt32
        let maxParameterLength: UInt32

        init(_ canonicalizer: URLCanonicalizer) {
            maxURLLength = UInt32(clamping: canonicalizer.maxURLLength)
            maxParameterLength = UInt32(clamping: canonicalizer.maxParameterLength)
        }
    }

    /// The longest URL a router matches, in bytes: every offset into it fits in 32 bits.
    static let longestURL = Int(UInt32.max) - 1

    private let subjectLength: UInt32
    /// `noQuery` when the URL has no query.
    private let queryStart: UInt32
    private let queryEnd: UInt32
    private let limits: Limits
    /// Whether the subject is the URL's first `length` bytes (see `CanonicalLayout.isVerbatim`).
    let isVerbatim: Bool
    /// Whether the URL has no `%` at all (it passed `URLCanonicalizer.verbatimLayout`, which
    /// refuses any), so a parameter is its bytes as they are, with nothing to decode.
    let hasNoEscapes: Bool

    private static let noQuery = UInt32.max

    /// The layout of a URL of at most `longestURL` bytes.
    @inline(__always)
    init(layout: CanonicalLayout, limits: Limits, hasNoEscapes: Bool) {
        subjectLength = UInt32(truncatingIfNeeded: layout.length)
        queryStart = layout.queryRange.map { UInt32(truncatingIfNeeded: $0.lowerBound) } ?? Self.noQuery
        queryEnd = UInt32(truncatingIfNeeded: layout.queryRange?.upperBound ?? 0)
        self.limits = limits
        isVerbatim = layout.isVerbatim
        self.hasNoEscapes = hasNoEscapes
    }

    /// The layout of a verbatim URL of at most `longestURL` bytes, from its parts (see
    /// `VerbatimDispatch`): its subject's length, where its `?` is (`count` for none), and its length.
    @inline(__always)
    init(verbatimLength length: UInt32, queryMark: UInt32, count: UInt32, limits: Limits) {
        subjectLength = length
        queryStart = queryMark < count ? queryMark &+ 1 : Self.noQuery
        queryEnd = count
        self.limits = limits
        isVerbatim = true
        hasNoEscapes = true
    }

    /// The canonical subject's length.
    var length: Int { Int(subjectLength) }

    /// The query's byte range in the URL, without the `?`.
    var queryRange: Range<Int>? { queryStart == Self.noQuery ? nil : Int(queryStart)..<Int(queryEnd) }

    /// A canonicalizer with the limits the URL was canonicalized with.
    var canonicalizer: URLCanonicalizer {
        URLCanonicalizer(maxURLLength: Int(limits.maxURLLength), maxParameterLength: Int(limits.maxParameterLength))
    }
}
