private let slash = UInt8(ascii: "/")
private let question = UInt8(ascii: "?")

/// How verbatim dispatch finds the URL's stops: `/` and `?`, and whether bytes need work.
protocol URLStops {
    /// The offset of the first `/` or `?` at or after `start`, or the URL's length.
    func firstStop(from start: Int) -> Int
    /// Scans the URL from `start` on: where its query starts and how many `/` come before, or that
    /// a byte needs canonicalizing work.
    func scanAfterKey(from start: Int) -> AfterKeyScan
}

/// What `URLStops.scanAfterKey` found in the bytes after a dispatch key. Two words, returned in
/// registers as a pair of integers would be.
struct AfterKeyScan: Equatable {
    /// Where the first `?` is, or the URL's length; `needsWorkMark` when a byte from the scan's start
    /// on is outside `&`...`~` (see `URLCanonicalizer.verbatimLayout`), so the URL is not verbatim.
    let queryMark: Int
    /// The number of `/` from the scan's start to the query mark.
    let slashes: Int

    /// `queryMark` of a scan that met a byte needing work (no offset is negative).
    private static let needsWorkMark = -1

    init(queryMark: Int, slashes: Int) {
        self.queryMark = queryMark
        self.slashes = slashes
    }

    /// A scan that met a byte needing work.
    static var needsWork: AfterKeyScan { AfterKeyScan(queryMark: needsWorkMark, slashes: 0) }

    /// Whether every byte scanned is one a canonical URL keeps as it is.
    var isVerbatim: Bool { queryMark != Self.needsWorkMark }
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
    @inline(__always)
    func scanAfterKey(from start: Int) -> AfterKeyScan {
        var offset = start
        var slashes = 0
        while offset < count {
            let base = min(offset, count &- 8)
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base, as: UInt64.self))
            if URLCanonicalizer.hasByteOutsidePlainRange(word) { return .needsWork }
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
                    if URLCanonicalizer.hasByteOutsidePlainRange(word) { return .needsWork }
                    next &+= 8
                }
                return AfterKeyScan(queryMark: queryMark, slashes: slashes)
            }
            slashes &+= WordScan.markedByteCount(slashBytes)
            offset = base &+ 8
        }
        return AfterKeyScan(queryMark: count, slashes: slashes)
    }
}
