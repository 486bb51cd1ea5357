import CDeepLinks

/// Where the `/`, the `?` and the bytes outside `&`...`~` of a URL of 16 to 64 bytes are, one bit
/// per byte, found sixteen bytes at a time (`cdeeplinks_map`); verbatim dispatch then finds every
/// stop it needs with a mask and a bit count, without a loop or a branch per word.
struct URLByteMap: URLStops {
    /// The URL lengths a map covers: a block of sixteen bytes at least, one bit per byte in a word.
    static let shortest = 16
    static let longest = 64

    private let map: cdeeplinks_url_map
    private let count: Int

    /// The map of `input[0..<count]`, `shortest` ≤ `count` ≤ `longest`.
    @inline(__always)
    init(_ input: UnsafePointer<UInt8>, count: Int) {
        map = cdeeplinks_map(input, count)
        self.count = count
    }

    /// The bits of bytes at offsets `start` and after (none when `start` is 64).
    @inline(__always)
    private static func from(_ start: Int) -> UInt64 { start < 64 ? UInt64.max &<< UInt64(truncatingIfNeeded: start) : 0 }

    @inline(__always)
    func firstStop(from start: Int) -> Int {
        let stops = (map.slashes | map.marks) & Self.from(start)
        return stops == 0 ? count : stops.trailingZeroBitCount
    }

    @inline(__always)
    func scanAfterKey(from start: Int) -> AfterKeyScan {
        let after = Self.from(start)
        if map.outside & after != 0 { return .needsWork }
        let marks = map.marks & after
        let queryMark = marks == 0 ? count : marks.trailingZeroBitCount
        return AfterKeyScan(queryMark: queryMark, slashes: (map.slashes & after & ~Self.from(queryMark)).nonzeroBitCount)
    }
}
