import CPCRE2

/// Where a matched route's capture groups are in the canonical subject, copied out of the thread's
/// match data so that the match data can be reused at once.
///
/// Plain bytes (no references), so a `RouteMatch` costs no reference counting for them, in two
/// words (see `MatchedURL` for why a match counts its words). Up to four groups fit, at offsets
/// below 65,535 (the default URL limit is 4,096 bytes); a match that does not fit keeps no spans
/// (`isComplete` is false), and its reader runs the route's own pattern again to find them.
@usableFromInline
struct CaptureSpans: Sendable {
    /// Group `i`'s start is bits `32 × (i % 2)` of word `i / 2`, its end the sixteen bits above;
    /// `unset` for a group that did not take part. Spans that do not fit are `incomplete`.
    private let words: (UInt64, UInt64)

    private static let capacity = 4
    /// The offset of a group that did not take part (no kept offset reaches it).
    private static let unset = UInt16.max
    /// A word of two groups that did not take part: every offset `unset`.
    private static let unsetPair = UInt64.max
    /// Spans that did not fit: group 1 with an end but no start, which no match gives (PCRE2 sets
    /// both offsets of a group or neither).
    private static let incomplete: (UInt64, UInt64) = (UInt64(unset), 0)
    /// No group took part.
    private static let none: (UInt64, UInt64) = (unsetPair, unsetPair)

    /// The spans of a match in which no group took part (what a failure carries in their place).
    static var noGroups: CaptureSpans { CaptureSpans(words: none) }

    private init(words: (UInt64, UInt64)) { self.words = words }

    /// Whether every group's span is here.
    var isComplete: Bool { words.0 != Self.incomplete.0 || words.1 != Self.incomplete.1 }

    /// Copies the spans of `count` groups starting at group `groupBase + 1` from `ovector`.
    @inline(__always)
    init(ovector: UnsafeMutablePointer<Int>, groupBase: Int, count: Int) {
        guard count > 0 else { words = Self.none; return }
        guard count <= Self.capacity else { words = Self.incomplete; return }
        let first = ovector + 2 * (groupBase + 1)
        let unset = cpcre2_unset()
        if count <= 2 {
            // The usual case, one word, built in registers without a branch: written sixteen
            // bits at a time in memory, the spans stalled their first copy, a wider load that
            // cannot take its bytes from several pending narrower stores. A second group's
            // offsets are read only when there is one (the load is clamped, its value replaced).
            let last = 2 &* count &- 1
            let start0 = first[0], end0 = first[1]
            let loadedStart1 = first[min(2, last)], loadedEnd1 = first[last]
            let start1 = count == 2 ? loadedStart1 : unset, end1 = count == 2 ? loadedEnd1 : unset
            // PCRE2's unset offset is -1 as an `Int`, which fits, and truncates to `unset`.
            let fits = max(max(start0, end0), max(start1, end1)) < Int(Self.unset)
            let word = UInt64(UInt16(truncatingIfNeeded: start0)) | UInt64(UInt16(truncatingIfNeeded: end0)) &<< 16
                | UInt64(UInt16(truncatingIfNeeded: start1)) &<< 32 | UInt64(UInt16(truncatingIfNeeded: end1)) &<< 48
            words = fits ? (word, Self.unsetPair) : Self.incomplete
            return
        }
        words = Self.packed(first, count: count)
    }

    /// The spans of three or four groups, from their offsets at `first`, laid out as the one-word
    /// case lays out the first two; `incomplete` when an offset does not fit.
    @inline(never)
    private static func packed(_ first: UnsafeMutablePointer<Int>, count: Int) -> (UInt64, UInt64) {
        var low = unsetPair, high = unsetPair
        let unset = cpcre2_unset()
        for index in 0..<(2 * count) {
            let offset = first[index]
            if offset == unset { continue }
            if offset >= Int(Self.unset) { return Self.incomplete }
            let shift = UInt64(truncatingIfNeeded: (index & 3) &* 16)
            let bits = UInt64(UInt16(truncatingIfNeeded: offset)) &<< shift, mask = ~(0xFFFF &<< shift)
            if index < 4 { low = low & mask | bits } else { high = high & mask | bits }
        }
        return (low, high)
    }

    /// The same spans with every offset replaced by `transform(offset)`; nil when the spans are not
    /// complete, or `transform` gives nil or an offset that does not fit for one of them.
    @inline(__always)
    func mapped(_ transform: (Int) -> Int?) -> CaptureSpans? {
        guard isComplete else { return nil }
        var result = (words.0, words.1)
        // Groups 3 and 4 only when some took part.
        for index in 0..<(result.1 == Self.unsetPair ? Self.capacity : 2 * Self.capacity) {
            let shift = UInt64(truncatingIfNeeded: (index & 3) &* 16)
            let word = index < 4 ? result.0 : result.1
            let offset = UInt16(truncatingIfNeeded: word &>> shift)
            if offset == Self.unset { continue }
            guard let moved = transform(Int(offset)), moved >= 0, moved < Int(Self.unset) else { return nil }
            let bits = UInt64(UInt16(truncatingIfNeeded: moved)) &<< shift, mask = ~(0xFFFF &<< shift)
            if index < 4 { result.0 = result.0 & mask | bits } else { result.1 = result.1 & mask | bits }
        }
        let spans = CaptureSpans(words: result)
        return spans.isComplete ? spans : nil
    }

    /// The byte range of group `index + 1` (0-based, relative to the route), or nil if it did not
    /// take part in the match. Only for complete spans.
    @inline(__always)
    func span(_ index: Int) -> Range<Int>? {
        precondition(isComplete && index >= 0 && index < Self.capacity, "capture group index out of range")
        // The word holding the group, read as a word and shifted: copied to memory and read
        // sixteen bits at a time, the spans stalled again, a wider load that cannot take its
        // bytes from the narrower stores that had just made them (or the reverse).
        let word = index < 2 ? words.0 : words.1
        let pair = word &>> UInt64(truncatingIfNeeded: (index & 1) &* 32)
        let start = UInt16(truncatingIfNeeded: pair), end = UInt16(truncatingIfNeeded: pair &>> 16)
        return start == Self.unset || end == Self.unset || end < start ? nil : Int(start)..<Int(end)
    }
}
