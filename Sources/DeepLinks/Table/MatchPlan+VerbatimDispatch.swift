private let slash = UInt8(ascii: "/")
private let question = UInt8(ascii: "?")

extension MatchPlan {
    /// Dispatches a URL that is already canonical in one go, checking only what its dispatch key
    /// does not vouch for: the candidate set, and the layout `URLCanonicalizer.verbatimLayout`
    /// would give; nil when this path cannot tell (then `verbatimLayout` and `candidateSet`
    /// decide, or the URL is canonicalized).
    ///
    /// The URL's structure is found first, without checking bytes: the scheme's `:` in the first
    /// word, `//`, the host's end and the first segment's. Its first-segment key, else its host
    /// key, is then looked up (`DispatchIndex.verbatimKey`). A key found is equal to the URL's
    /// first bytes, and was checked canonical when the table was built (scheme and host in lower
    /// case, no byte that needs work), so only the bytes after it are checked: that each needs no
    /// work, where the query starts, and how many `/` come before it (the key's own are counted at
    /// build time). The stops come from a `URLByteMap` (SSE2, one bit per byte) for URLs of 16 to
    /// 64 bytes, and from `WordScanStops` (eight bytes at a time) for the others. A URL without
    /// `//`, with a scheme longer than seven bytes, an empty first segment followed by more path, or
    /// whose host no key names goes the other way.
    ///
    /// When it answers, it agrees with `verbatimLayout` followed by `candidateSet(for:layout:)`
    /// (the tests compare them).
    ///
    /// Out of line on purpose: left to the inliner, `RouteTable.find` kept this inline and ran the
    /// winner's pattern out of line instead, 4 ns slower a URL.
    @inline(never)
    func verbatimDispatch(_ bytes: UnsafeBufferPointer<UInt8>, maxURLLength: Int, maxParameterLength: Int) -> VerbatimDispatch {
        let count = bytes.count
        guard count >= 8, count <= maxURLLength, let input = bytes.baseAddress else { return .none }
        guard count >= URLByteMap.shortest, count <= URLByteMap.longest else {
            return verbatimDispatchByWords(input, count: count, maxParameterLength: maxParameterLength)
        }
        return verbatimDispatch(input, count: count, stops: URLByteMap(input, count: count), maxParameterLength: maxParameterLength)
    }

    /// `verbatimDispatch` for a URL too short or too long for a `URLByteMap`.
    @inline(never)
    private func verbatimDispatchByWords(_ input: UnsafePointer<UInt8>, count: Int, maxParameterLength: Int) -> VerbatimDispatch {
        // Offsets are packed in 31 bits (a longer URL goes the other way, which refuses it).
        guard count <= MatchedURL.longestURL else { return .none }
        return verbatimDispatch(input, count: count, stops: WordScanStops(input, count: count), maxParameterLength: maxParameterLength)
    }

    /// `verbatimDispatch` once the way of finding stops is chosen (the compiler makes one copy for each).
    @inline(__always)
    private func verbatimDispatch(_ input: UnsafePointer<UInt8>, count: Int, stops: some URLStops, maxParameterLength: Int)
        -> VerbatimDispatch {
        let raw = UnsafeRawPointer(input)
        let colons = WordScan.firstZeroByte(UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) ^ WordScan.repeated(UInt8(ascii: ":")))
        guard colons != 0 else { return .none }
        let schemeEnd = colons.trailingZeroBitCount &>> 3
        let hostStart = schemeEnd &+ 3
        guard hostStart <= count, input[schemeEnd &+ 1] == slash, input[schemeEnd &+ 2] == slash else { return .none }

        let pathStart = stops.firstStop(from: hostStart)
        var firstSegmentEnd = pathStart
        if pathStart < count, input[pathStart] == slash {
            let end = stops.firstStop(from: pathStart &+ 1)
            if end != pathStart &+ 1 {
                firstSegmentEnd = end
            } else if end < count, input[end] != question {
                // `//` starting the path: rare, and trailing-slash removal would change the key.
                return .none
            }
        }

        let (found, keyEnd) = dispatch.verbatimKey(input, firstSegmentEnd: firstSegmentEnd, pathStart: pathStart)
        guard found.isFound else { return Self.missingKey(input, count: count, pathStart: pathStart) }

        let (queryMark, restSlashes) = stops.scanAfterKey(from: keyEnd)
        // (A byte that needs work after the key, `%` say, also makes the URL not verbatim; saying so here cost the
        // usual path 6 instructions of register shuffling, more than the second check it would spare such URLs.)
        guard queryMark >= 0, queryMark &- pathStart <= maxParameterLength, count &- queryMark <= maxParameterLength &+ 1 else { return .none }
        var length = queryMark
        while length > pathStart, input[length &- 1] == slash { length &-= 1 }
        // A non-empty first segment ends before any trailing `/`, so those are all after the key.
        let slashes = found.slashes &+ restSlashes &- (queryMark &- length)
        let (set, loneRoute) = segmentCounts.candidateSet(key: found.candidateSet, slashes: slashes, firstSlot: found.firstSlot,
                                                          slotCount: found.slotCount)
        return VerbatimDispatch(set: set, loneRoute: loneRoute,
                                length: length, schemeLength: schemeEnd, pathStart: pathStart,
                                firstSegmentEnd: max(min(firstSegmentEnd, length), pathStart), queryMark: queryMark, count: count)
    }
}

extension MatchPlan {
    /// What verbatim dispatch says of a URL whose key the index does not hold: a capital in the
    /// scheme or host (`MYAPP://`, `https://Example.com`), the likely reason, makes it not verbatim;
    /// otherwise it cannot tell. (Out of line, so that verbatim dispatch keeps its registers.)
    @inline(never)
    static func missingKey(_ input: UnsafePointer<UInt8>, count: Int, pathStart: Int) -> VerbatimDispatch {
        hasCapitalOrNonASCII(input, count: count, end: pathStart) ? .notVerbatim : .none
    }

    /// Whether one of the first `end` bytes of the URL at `input` (`count` ≥ 8 bytes long) is an
    /// upper-case ASCII letter or not ASCII: either in a scheme or host makes a URL that
    /// `URLCanonicalizer.verbatimLayout` refuses. Eight bytes at a time.
    static func hasCapitalOrNonASCII(_ input: UnsafePointer<UInt8>, count: Int, end: Int) -> Bool {
        let raw = UnsafeRawPointer(input)
        var offset = 0
        while offset < end {
            let base = min(offset, count &- 8)
            let skipped = offset &- base
            let wanted = min(end &- offset, 8 &- skipped)
            var word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base, as: UInt64.self)) &>> UInt64(truncatingIfNeeded: skipped &* 8)
            if wanted < 8 { word &= (1 &<< UInt64(truncatingIfNeeded: wanted &* 8)) &- 1 }
            let high = WordScan.repeated(0x80)
            if word & high != 0 { return true }
            // ASCII bytes only now: a byte is `A`...`Z` when adding 0x3F sets its top bit and adding 0x25 does not.
            if (word &+ WordScan.repeated(0x3F)) & ~(word &+ WordScan.repeated(0x25)) & high != 0 { return true }
            offset &+= wanted
        }
        return false
    }
}

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

/// How verbatim dispatch finds the URL's stops: `/` and `?`, and whether bytes need work.
protocol URLStops {
    /// The offset of the first `/` or `?` at or after `start`, or the URL's length.
    func firstStop(from start: Int) -> Int
    /// Scans the URL from `start` on.
    /// - Returns: where the first `?` is (or the URL's length) and the number of `/` before it; a
    ///   query mark of -1 when a byte from `start` on is outside `&`...`~` (see
    ///   `URLCanonicalizer.verbatimLayout`).
    func scanAfterKey(from start: Int) -> (queryMark: Int, slashes: Int)
}

/// Stops found eight bytes at a time, in Swift: for URLs of any length of at least eight bytes.
struct WordScanStops: URLStops {
    private let raw: UnsafeRawPointer
    private let count: Int

    @inline(__always)
    init(_ input: UnsafePointer<UInt8>, count: Int) {
        raw = UnsafeRawPointer(input)
        self.count = count
    }

    /// The offset of the first `/` or `?` in `raw[start..<count]` (`count` ≥ 8), or `count`:
    /// eight bytes at a time, the last word being the URL's last eight bytes with those before
    /// `start` shifted out (zero bytes are neither). `WordScan.firstIndex(of:or:)` ends with bytes
    /// one at a time instead, which suits the short query ranges it searches (given this word
    /// tail, they cost ~11 instructions more per URL on average, measured).
    @inline(__always)
    func firstStop(from start: Int) -> Int {
        var offset = start
        while offset < count {
            let base = min(offset, count &- 8)
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base, as: UInt64.self)) &>> UInt64(truncatingIfNeeded: (offset &- base) &<< 3)
            let stops = WordScan.firstZeroByte(word ^ WordScan.repeated(slash)) | WordScan.firstZeroByte(word ^ WordScan.repeated(question))
            if stops != 0 { return offset &+ stops.trailingZeroBitCount &>> 3 }
            offset = base &+ 8
        }
        return count
    }

    /// Scans `raw[start..<count]` (`count` ≥ 8) eight bytes at a time, words as in `firstStop`.
    /// - Returns: where the first `?` is (or `count`) and the number of `/` before it; a query
    ///   mark of -1 when a byte is outside `&`...`~` (see `URLCanonicalizer.verbatimLayout`).
    @inline(__always)
    func scanAfterKey(from start: Int) -> (queryMark: Int, slashes: Int) {
        var offset = start
        var slashes = 0
        while offset < count {
            let base = min(offset, count &- 8)
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base, as: UInt64.self))
            if URLCanonicalizer.hasByteOutsidePlainRange(word) { return (-1, 0) }
            let fresh = word &>> UInt64(truncatingIfNeeded: (offset &- base) &<< 3)
            let slashBytes = WordScan.exactZeroBytes(fresh ^ WordScan.repeated(slash))
            let marks = WordScan.firstZeroByte(fresh ^ WordScan.repeated(question))
            if marks != 0 {
                let queryMark = offset &+ marks.trailingZeroBitCount &>> 3
                slashes &+= WordScan.markedByteCount(slashBytes & ((marks & (0 &- marks)) &- 1))
                // The query needs the range check only.
                var next = base &+ 8
                while next < count {
                    let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: min(next, count &- 8), as: UInt64.self))
                    if URLCanonicalizer.hasByteOutsidePlainRange(word) { return (-1, 0) }
                    next &+= 8
                }
                return (queryMark, slashes)
            }
            slashes &+= WordScan.markedByteCount(slashBytes)
            offset = base &+ 8
        }
        return (count, slashes)
    }
}
