/// What `MatchPlan.verbatimDispatch` found: the candidate set and the URL's layout, packed in four
/// words so that they come back in registers. Returned as a `(set: Int, layout: CanonicalLayout)?`
/// they came back through memory, written a word at a time, and the caller's first copy, sixteen
/// bytes at a time, waited for those stores to complete (a load cannot take its bytes from two
/// pending stores): the slowest instructions of routing, in a profile by time.
struct VerbatimDispatch {
    /// The candidate set (low 32 bits) and its one route plus two (high 32 bits: see `loneRoute`);
    /// -1 when verbatim dispatch could not tell, -2 when the URL is not canonical as it is
    /// (`URLCanonicalizer.verbatimLayout` refuses it: it must be canonicalized).
    private let packedSet: Int
    /// The subject's length (low 32 bits) and the scheme's (high 32 bits).
    private let lengths: UInt64
    /// Where the path starts (low 32 bits) and the first segment ends (high 32 bits).
    private let path: UInt64
    /// Where the `?` is (low 32 bits) and the URL's length (high 32 bits).
    private let query: UInt64

    /// Verbatim dispatch could not tell.
    static var none: VerbatimDispatch { VerbatimDispatch(packedSet: -1, lengths: 0, path: 0, query: 0) }

    /// The URL is not canonical as it is: it has a byte that needs work.
    static var notVerbatim: VerbatimDispatch { VerbatimDispatch(packedSet: -2, lengths: 0, path: 0, query: 0) }

    /// Whether the URL was found not canonical as it is (so `verbatimLayout` need not look again).
    var isNotVerbatim: Bool { packedSet == -2 }

    /// Whether verbatim dispatch answered (`set` and the layout are the URL's).
    @inline(__always)
    var isAnswer: Bool { packedSet >= 0 }

    /// The candidate set (when `isAnswer`); -1 or -2 otherwise, as above.
    @inline(__always)
    var set: Int { packedSet < 0 ? packedSet : packedSet & 0xFFFF_FFFF }

    /// The candidate set's one route (when `isAnswer`): -1 when it has several or none, -2 when the
    /// dispatch did not read it (the plan then knows).
    @inline(__always)
    var loneRoute: Int { (packedSet &>> 32) &- 2 }

    private init(packedSet: Int, lengths: UInt64, path: UInt64, query: UInt64) {
        self.packedSet = packedSet
        self.lengths = lengths
        self.path = path
        self.query = query
    }

    /// An answer; every offset is below 2³² (see `verbatimDispatchByWords`).
    @inline(__always)
    init(set: Int, loneRoute: Int, length: Int, schemeLength: Int, pathStart: Int, firstSegmentEnd: Int, queryMark: Int, count: Int) {
        self.init(packedSet: set | (loneRoute &+ 2) &<< 32, lengths: UInt64(truncatingIfNeeded: length) | UInt64(truncatingIfNeeded: schemeLength) &<< 32,
                  path: UInt64(truncatingIfNeeded: pathStart) | UInt64(truncatingIfNeeded: firstSegmentEnd) &<< 32,
                  query: UInt64(truncatingIfNeeded: queryMark) | UInt64(truncatingIfNeeded: count) &<< 32)
    }

    /// The layout `URLCanonicalizer.verbatimLayout` gives the URL (only when `set` ≥ 0).
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

    /// What a match keeps of the layout (only when `set` ≥ 0), straight from the packed words.
    @inline(__always)
    var matchedURL: MatchedURL {
        MatchedURL(verbatimLength: UInt32(truncatingIfNeeded: lengths), queryMark: UInt32(truncatingIfNeeded: query),
                   count: UInt32(truncatingIfNeeded: query &>> 32))
    }

    /// The answer, nil when verbatim dispatch could not tell.
    var answer: (set: Int, layout: CanonicalLayout)? { isAnswer ? (self.set, layout) : nil }
}
