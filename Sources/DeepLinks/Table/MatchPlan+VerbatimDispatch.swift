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
    @inline(__always)
    func verbatimDispatch(_ bytes: UnsafeBufferPointer<UInt8>, maxURLLength: Int, maxParameterLength: Int)
        -> (set: Int, layout: CanonicalLayout)? {
        let count = bytes.count
        guard count >= 8, count <= maxURLLength, let input = bytes.baseAddress else { return nil }
        guard count >= URLByteMap.shortest, count <= URLByteMap.longest else {
            return verbatimDispatchByWords(input, count: count, maxParameterLength: maxParameterLength)
        }
        return verbatimDispatch(input, count: count, stops: URLByteMap(input, count: count), maxParameterLength: maxParameterLength)
    }

    /// `verbatimDispatch` for a URL too short or too long for a `URLByteMap`.
    @inline(never)
    private func verbatimDispatchByWords(_ input: UnsafePointer<UInt8>, count: Int, maxParameterLength: Int)
        -> (set: Int, layout: CanonicalLayout)? {
        verbatimDispatch(input, count: count, stops: WordScanStops(input, count: count), maxParameterLength: maxParameterLength)
    }

    /// `verbatimDispatch` once the way of finding stops is chosen (the compiler makes one copy for each).
    @inline(__always)
    private func verbatimDispatch(_ input: UnsafePointer<UInt8>, count: Int, stops: some URLStops, maxParameterLength: Int)
        -> (set: Int, layout: CanonicalLayout)? {
        let raw = UnsafeRawPointer(input)
        let colons = WordScan.firstZeroByte(UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) ^ WordScan.repeated(UInt8(ascii: ":")))
        guard colons != 0 else { return nil }
        let schemeEnd = colons.trailingZeroBitCount &>> 3
        let hostStart = schemeEnd &+ 3
        guard hostStart <= count, input[schemeEnd &+ 1] == slash, input[schemeEnd &+ 2] == slash else { return nil }

        let pathStart = stops.firstStop(from: hostStart)
        var firstSegmentEnd = pathStart
        if pathStart < count, input[pathStart] == slash {
            let end = stops.firstStop(from: pathStart &+ 1)
            if end != pathStart &+ 1 {
                firstSegmentEnd = end
            } else if end < count, input[end] != question {
                // `//` starting the path: rare, and trailing-slash removal would change the key.
                return nil
            }
        }

        var found = DispatchIndex.missingKey
        var keyEnd = firstSegmentEnd
        if firstSegmentEnd > pathStart, dispatch.mayHoldKey(ofLength: firstSegmentEnd) {
            found = dispatch.verbatimKey(input, count: firstSegmentEnd)
        }
        if found == DispatchIndex.missingKey {
            guard dispatch.mayHoldKey(ofLength: pathStart) else { return nil }
            keyEnd = pathStart
            found = dispatch.verbatimKey(input, count: pathStart)
        }
        guard found >= 0 else { return nil }

        let (queryMark, restSlashes) = stops.scanAfterKey(from: keyEnd)
        guard queryMark >= 0, queryMark &- pathStart <= maxParameterLength, count &- queryMark <= maxParameterLength &+ 1 else { return nil }
        var length = queryMark
        while length > pathStart, input[length &- 1] == slash { length &-= 1 }
        // A non-empty first segment ends before any trailing `/`, so those are all after the key.
        let slashes = DispatchIndex.slashes(ofFoundKey: found) &+ restSlashes &- (queryMark &- length)
        let layout = CanonicalLayout(length: length, schemeLength: schemeEnd, hasAuthority: true, pathStart: pathStart,
                                     firstSegmentEnd: max(min(firstSegmentEnd, length), pathStart),
                                     queryRange: queryMark < count ? (queryMark &+ 1)..<count : nil, isVerbatim: true)
        return (segmentCounts.candidateSet(key: DispatchIndex.candidateSet(ofFoundKey: found), slashes: slashes), layout)
    }
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
