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

        let scan = stops.scanAfterKey(from: keyEnd)
        let queryMark = scan.queryMark, restSlashes = scan.slashes
        // A byte that needs work after the key (`%`, say) also means the URL is not verbatim, but this
        // answers "cannot tell" and lets `verbatimLayout` find that again: answering `.notVerbatim` here
        // keeps one more value alive across the lookup, which costs every URL register moves, to spare
        // the rarer URL with escapes one scan.
        guard scan.isVerbatim, queryMark &- pathStart <= maxParameterLength, count &- queryMark <= maxParameterLength &+ 1 else { return .none }
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
