/// What a `RouteMatch` keeps of its URL's canonical layout, in one word: the subject's length and
/// where the query starts (31 bits each), whether the subject is the URL's first bytes, and whether
/// the URL has no escapes.
///
/// One word, so that a `RouteMatch` (route, URL, this and two words of `CaptureSpans`) stays at six
/// words: Swift takes a `Result` holding a value of at most six words apart and releases its fields
/// one by one, inline, but destroys a larger one whole through `Result`'s generic value witness,
/// looked up in its metadata at run time: a call and a lookup more for every match a caller drops.
///
/// Offsets fit without a check: `RouteTable` refuses URLs longer than `longestURL` bytes before
/// matching (no Swift string that long reaches a router in practice; the limit keeps the
/// truncating conversions exact rather than trapping). The canonicalizer's limits are not kept:
/// they only refuse URLs, never change a canonical form, so the URL, already accepted, is derived
/// again under `rederiving`.
@usableFromInline
struct MatchedURL: Sendable {
    /// The longest URL a router matches, in bytes: every offset into it fits in 31 bits.
    static let longestURL = Int(Int32.max) - 1

    /// Bits 0–30: the subject's length (or, for spans moved onto the URL, the length of the URL
    /// before its query); bit 31: `isVerbatim`; bits 32–62: the query's first byte (`noQuery` when
    /// there is none); bit 63: `hasNoEscapes`.
    private let bits: UInt64

    private static let offsetMask: UInt64 = 0x7FFF_FFFF
    private static let noQuery: UInt64 = offsetMask
    private static let verbatimBit: UInt64 = 1 &<< 31
    private static let noEscapesBit: UInt64 = 1 &<< 63

    /// A canonicalizer whose limits refuse no URL a router matches, to derive a routed URL's form
    /// again (limits as large as `longestURL`, not `Int.max`: the canonicalizer adds to them).
    static let rederiving = URLCanonicalizer(maxURLLength: longestURL, maxParameterLength: longestURL)

    @inline(__always)
    private init(length: UInt64, queryStart: UInt64, isVerbatim: Bool, hasNoEscapes: Bool) {
        bits = length & Self.offsetMask | (isVerbatim ? Self.verbatimBit : 0) | (queryStart & Self.offsetMask) &<< 32
            | (hasNoEscapes ? Self.noEscapesBit : 0)
    }

    /// The layout of an empty URL (what a failure carries in a URL's place).
    static var empty: MatchedURL { MatchedURL(length: 0, queryStart: noQuery, isVerbatim: true, hasNoEscapes: true) }

    /// The layout of a URL of at most `longestURL` bytes.
    @inline(__always)
    init(layout: CanonicalLayout, hasNoEscapes: Bool) {
        self.init(length: UInt64(truncatingIfNeeded: layout.length),
                  queryStart: layout.queryRange.map { UInt64(truncatingIfNeeded: $0.lowerBound) } ?? Self.noQuery,
                  isVerbatim: layout.isVerbatim, hasNoEscapes: hasNoEscapes)
    }

    /// The layout of a verbatim URL of at most `longestURL` bytes, from its parts (see
    /// `VerbatimDispatch`): its subject's length, where its `?` is (`count` for none), and its length.
    @inline(__always)
    init(verbatimLength length: UInt32, queryMark: UInt32, count: UInt32) {
        self.init(length: UInt64(length), queryStart: queryMark < count ? UInt64(queryMark) &+ 1 : Self.noQuery, isVerbatim: true,
                  hasNoEscapes: true)
    }

    /// The layout of a URL that needed canonicalizing, whose groups' spans were moved from its
    /// subject onto its own bytes (`RouteHit.movedOntoURL`): read like a verbatim URL's, the first
    /// `pathEnd` bytes standing for the subject, with escapes to decode.
    @inline(__always)
    init(spansOnURL pathEnd: Int, of layout: CanonicalLayout) {
        self.init(length: UInt64(truncatingIfNeeded: pathEnd),
                  queryStart: layout.queryRange.map { UInt64(truncatingIfNeeded: $0.lowerBound) } ?? Self.noQuery,
                  isVerbatim: true, hasNoEscapes: false)
    }

    /// The canonical subject's length (for spans moved onto the URL, the URL's length before its query).
    var length: Int { Int(truncatingIfNeeded: bits & Self.offsetMask) }

    /// Whether the groups' spans index the URL's first `length` bytes: the subject is those bytes
    /// (see `CanonicalLayout.isVerbatim`), or the spans were moved onto them (`init(spansOnURL:of:)`).
    /// Otherwise a reader derives the subject again.
    var isVerbatim: Bool { bits & Self.verbatimBit != 0 }

    /// Whether the URL has no `%` at all (it passed `URLCanonicalizer.verbatimLayout`, which
    /// refuses any), so a parameter is its bytes as they are, with nothing to decode.
    var hasNoEscapes: Bool { bits & Self.noEscapesBit != 0 }

    /// The query's byte range in `source`, the URL's bytes, without the `?`: up to the fragment's
    /// `#` (the first `#` of the URL, as none comes before the `?`), or the end. A URL with no
    /// escapes has no `#` (`verbatimLayout` refuses one).
    @inline(__always)
    func queryRange(in source: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let start = bits &>> 32 & Self.offsetMask
        guard start != Self.noQuery else { return nil }
        let lower = Int(truncatingIfNeeded: start)
        if hasNoEscapes { return lower..<source.count }
        return lower..<(source[lower...].firstIndex(of: UInt8(ascii: "#")) ?? source.count)
    }
}
