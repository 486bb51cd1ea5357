/// What a `RouteMatch` keeps of its URL's canonical layout and of the canonicalizer's limits, in
/// 32-bit fields, so that a match stays small to copy (the parts dispatch needed are left out).
struct MatchedURL: Sendable {
    private let subjectLength: UInt32
    /// `noQuery` when the URL has no query.
    private let queryStart: UInt32
    private let queryEnd: UInt32
    /// The canonicalizer's limits, capped at `UInt32.max` (a URL this long cannot exist, so a cap
    /// changes no outcome when the subject is derived again).
    private let maxURLLength: UInt32
    private let maxParameterLength: UInt32
    /// Whether the subject is the URL's first `length` bytes (see `CanonicalLayout.isVerbatim`).
    let isVerbatim: Bool
    /// Whether the URL has no `%` at all (it passed `URLCanonicalizer.verbatimLayout`, which
    /// refuses any), so a parameter is its bytes as they are, with nothing to decode.
    let hasNoEscapes: Bool

    private static let noQuery = UInt32.max

    @inline(__always)
    init(layout: CanonicalLayout, canonicalizer: URLCanonicalizer, hasNoEscapes: Bool) {
        // Offsets are below `maxURLLength`; a URL of 4 GiB cannot reach here as a Swift string
        // on any platform we build for, and would trap on the conversion rather than go wrong.
        subjectLength = UInt32(layout.length)
        queryStart = layout.queryRange.map { UInt32($0.lowerBound) } ?? Self.noQuery
        queryEnd = UInt32(layout.queryRange?.upperBound ?? 0)
        maxURLLength = UInt32(clamping: canonicalizer.maxURLLength)
        maxParameterLength = UInt32(clamping: canonicalizer.maxParameterLength)
        isVerbatim = layout.isVerbatim
        self.hasNoEscapes = hasNoEscapes
    }

    /// The canonical subject's length.
    var length: Int { Int(subjectLength) }

    /// The query's byte range in the URL, without the `?`.
    var queryRange: Range<Int>? { queryStart == Self.noQuery ? nil : Int(queryStart)..<Int(queryEnd) }

    /// A canonicalizer with the limits the URL was canonicalized with.
    var canonicalizer: URLCanonicalizer {
        URLCanonicalizer(maxURLLength: Int(maxURLLength), maxParameterLength: Int(maxParameterLength))
    }
}
