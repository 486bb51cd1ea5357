import CPCRE2

/// Where a matched route's capture groups are in the canonical subject, copied out of the thread's
/// match data so that the match data can be reused at once.
///
/// Plain bytes (no references), so a `RouteMatch` costs no reference counting for them. Up to
/// eight groups fit, at offsets below 65,535 (the default URL limit is 4,096 bytes); a match that
/// does not fit keeps no spans (`isComplete` is false), and its reader runs the route's own
/// pattern again to find them.
struct CaptureSpans: Sendable {
    /// Start and end offsets of groups 1...8; `unset` for a group that did not take part.
    private var offsets: (UInt64, UInt64, UInt64, UInt64) = (.max, .max, .max, .max)
    /// The number of groups (0 when they do not fit).
    private let groupCount: UInt8
    /// Whether every group's span is here.
    let isComplete: Bool

    private static let capacity = 8
    private static let unset = UInt16.max

    /// Copies the spans of `count` groups starting at group `groupBase + 1` from `ovector`.
    @inline(__always)
    init(ovector: UnsafeMutablePointer<Int>, groupBase: Int, count: Int) {
        groupCount = UInt8(truncatingIfNeeded: min(count, Self.capacity + 1))
        guard count > 0 else { isComplete = true; return }
        guard count <= Self.capacity else { isComplete = false; return }
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
            isComplete = max(max(start0, end0), max(start1, end1)) < Int(Self.unset)
            offsets.0 = UInt64(UInt16(truncatingIfNeeded: start0)) | UInt64(UInt16(truncatingIfNeeded: end0)) &<< 16
                | UInt64(UInt16(truncatingIfNeeded: start1)) &<< 32 | UInt64(UInt16(truncatingIfNeeded: end1)) &<< 48
            return
        }
        (offsets, isComplete) = Self.packed(first, count: count)
    }

    /// The spans of three to eight groups, from their offsets at `first`, and whether they fit:
    /// group `i`'s start is bits `32 × (i % 2)` of word `i / 2`, its end the sixteen bits above, as
    /// the one-word case builds them. (Out of line: writing the words through a pointer takes
    /// their address, which would give every function this is inlined in a stack canary and a
    /// larger frame.)
    @inline(never)
    private static func packed(_ first: UnsafeMutablePointer<Int>, count: Int) -> (offsets: (UInt64, UInt64, UInt64, UInt64), fits: Bool) {
        var offsets: (UInt64, UInt64, UInt64, UInt64) = (.max, .max, .max, .max)
        var fits = true
        let unset = cpcre2_unset()
        withUnsafeMutablePointer(to: &offsets) { tuple in
            tuple.withMemoryRebound(to: UInt64.self, capacity: 4) { words in
                for index in 0..<(2 * count) {
                    let offset = first[index]
                    if offset == unset { continue }
                    if offset >= Int(Self.unset) { fits = false; break }
                    let shift = UInt64(truncatingIfNeeded: (index & 3) &* 16)
                    words[index >> 2] = words[index >> 2] & ~(0xFFFF &<< shift) | UInt64(UInt16(truncatingIfNeeded: offset)) &<< shift
                }
            }
        }
        return (offsets, fits)
    }

    /// The byte range of group `index + 1` (0-based, relative to the route), or nil if it did not
    /// take part in the match. Only for complete spans.
    @inline(__always)
    func span(_ index: Int) -> Range<Int>? {
        precondition(isComplete && index >= 0 && index < Int(groupCount), "capture group index out of range")
        // The word holding the group, read as a word and shifted: copied to memory and read
        // sixteen bits at a time, the spans stalled again, a wider load that cannot take its
        // bytes from the narrower stores that had just made them (or the reverse).
        let word: UInt64
        switch index >> 1 {
        case 0: word = offsets.0
        case 1: word = offsets.1
        case 2: word = offsets.2
        default: word = offsets.3
        }
        let pair = word &>> UInt64(truncatingIfNeeded: (index & 1) &* 32)
        let start = UInt16(truncatingIfNeeded: pair), end = UInt16(truncatingIfNeeded: pair &>> 16)
        return start == Self.unset || end == Self.unset || end < start ? nil : Int(start)..<Int(end)
    }
}
