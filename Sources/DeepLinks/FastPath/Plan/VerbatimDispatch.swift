/// What `MatchPlan.verbatimDispatch` found: the candidate set and the URL's layout, packed in four
/// words so that they come back in registers. Returned as a `(set: Int, layout: CanonicalLayout)?`
/// they came back through memory, written a word at a time, and the caller's first copy, sixteen
/// bytes at a time, waited for those stores to complete (a load cannot take its bytes from two
/// pending stores): the slowest instructions of routing, in a profile by time.
struct VerbatimDispatch {
    /// For an answer, the candidate set (low 32 bits) and its one route as `LoneRoute.packed`
    /// (high 32 bits), both below 2³¹ so that the word is not negative; otherwise `undecided` or
    /// `notVerbatimURL`, so that `isAnswer` is one comparison.
    private let packedSet: Int
    /// The subject's length (low 32 bits) and the scheme's (high 32 bits).
    private let lengths: UInt64
    /// Where the path starts (low 32 bits) and the first segment ends (high 32 bits).
    private let path: UInt64
    /// Where the `?` is (low 32 bits) and the URL's length (high 32 bits).
    private let query: UInt64

    /// `packedSet` when verbatim dispatch could not tell.
    private static let undecided = -1
    /// `packedSet` when the URL is not canonical as it is (`URLCanonicalizer.verbatimLayout`
    /// refuses it: it must be canonicalized).
    private static let notVerbatimURL = -2

    /// Verbatim dispatch could not tell.
    static var none: VerbatimDispatch { VerbatimDispatch(packedSet: undecided, lengths: 0, path: 0, query: 0) }

    /// The URL is not canonical as it is: it has a byte that needs work.
    static var notVerbatim: VerbatimDispatch { VerbatimDispatch(packedSet: notVerbatimURL, lengths: 0, path: 0, query: 0) }

    /// Whether the URL was found not canonical as it is (so `verbatimLayout` need not look again).
    var isNotVerbatim: Bool { packedSet == Self.notVerbatimURL }

    /// Whether verbatim dispatch could not tell (then `verbatimLayout` decides).
    var isUndecided: Bool { packedSet == Self.undecided }

    /// Whether verbatim dispatch answered (`set` and the layout are the URL's).
    @inline(__always)
    var isAnswer: Bool { packedSet >= 0 }

    /// The candidate set (only when `isAnswer`).
    @inline(__always)
    var set: Int { packedSet & 0xFFFF_FFFF }

    /// The candidate set's one route as its slot holds it, or `.unread` (only when `isAnswer`).
    @inline(__always)
    var loneRoute: LoneRoute { LoneRoute(packed: UInt32(truncatingIfNeeded: packedSet &>> 32)) }

    private init(packedSet: Int, lengths: UInt64, path: UInt64, query: UInt64) {
        self.packedSet = packedSet
        self.lengths = lengths
        self.path = path
        self.query = query
    }

    /// An answer; every offset is below 2³² (see `verbatimDispatchByWords`).
    @inline(__always)
    init(set: Int, loneRoute: LoneRoute, length: Int, schemeLength: Int, pathStart: Int, firstSegmentEnd: Int, queryMark: Int,
         count: Int) {
        self.init(packedSet: set | Int(loneRoute.packed) &<< 32, lengths: UInt64(truncatingIfNeeded: length) | UInt64(truncatingIfNeeded: schemeLength) &<< 32,
                  path: UInt64(truncatingIfNeeded: pathStart) | UInt64(truncatingIfNeeded: firstSegmentEnd) &<< 32,
                  query: UInt64(truncatingIfNeeded: queryMark) | UInt64(truncatingIfNeeded: count) &<< 32)
    }

    /// The layout `URLCanonicalizer.verbatimLayout` gives the URL (only when `isAnswer`).
    @inline(__always)
    var layout: CanonicalLayout {
        let queryMark = Int(truncatingIfNeeded: query & 0xFFFF_FFFF), count = Int(truncatingIfNeeded: query &>> 32)
        let length = Int(truncatingIfNeeded: lengths & 0xFFFF_FFFF), pathStart = Int(truncatingIfNeeded: path & 0xFFFF_FFFF)
        return CanonicalLayout(length: length, schemeLength: Int(truncatingIfNeeded: lengths &>> 32),
                               hasAuthority: true, pathStart: pathStart,
                               firstSegmentEnd: Int(truncatingIfNeeded: path &>> 32),
                               queryRange: queryMark < count ? (queryMark &+ 1)..<count : nil, isVerbatim: true,
                               urlPath: pathStart..<length)
    }

    /// What a match keeps of the layout (only when `isAnswer`), straight from the packed words.
    @inline(__always)
    var matchedURL: MatchedURL {
        MatchedURL(verbatimLength: UInt32(truncatingIfNeeded: lengths), queryMark: UInt32(truncatingIfNeeded: query),
                   count: UInt32(truncatingIfNeeded: query &>> 32))
    }

    /// The answer, nil when verbatim dispatch could not tell.
    var answer: (set: Int, layout: CanonicalLayout)? { isAnswer ? (self.set, layout) : nil }
}
