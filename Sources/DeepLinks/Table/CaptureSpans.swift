import CPCRE2

/// Where a matched route's capture groups are in the canonical subject, copied out of the thread's
/// match data so that the match data can be reused at once.
///
/// Routes with up to four groups (nearly all) keep their spans inline, so a match allocates
/// nothing; others keep them in an array.
struct CaptureSpans: Sendable {
    /// Start and end offsets of groups 1...4; `unset` for a group that did not take part.
    private var inline: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    /// Start and end offsets of every group, when they do not fit `inline`.
    private var overflow: [Int]?
    /// The number of groups.
    let count: Int

    private static let inlineGroups = 4
    private static let unset = UInt32.max

    /// Copies the spans of `count` groups starting at group `groupBase + 1` from `ovector`.
    @inline(__always)
    init(ovector: UnsafeMutablePointer<Int>, groupBase: Int, count: Int) {
        self.count = count
        inline = (Self.unset, Self.unset, Self.unset, Self.unset, Self.unset, Self.unset, Self.unset, Self.unset)
        overflow = nil
        guard count > 0 else { return }
        let first = ovector + 2 * (groupBase + 1)
        let unset = cpcre2_unset()
        var fitsInline = count <= Self.inlineGroups
        if fitsInline {
            for index in 0..<(2 * count) where first[index] != unset && first[index] >= Int(Self.unset) { fitsInline = false }
        }
        guard fitsInline else {
            overflow = (0..<(2 * count)).map { first[$0] == unset ? -1 : first[$0] }
            return
        }
        withUnsafeMutableBytes(of: &inline) { raw in
            for index in 0..<(2 * count) where first[index] != unset {
                raw.storeBytes(of: UInt32(truncatingIfNeeded: first[index]), toByteOffset: 4 * index, as: UInt32.self)
            }
        }
    }

    /// The byte range of group `index + 1` (0-based, relative to the route), or nil if it did not
    /// take part in the match.
    @inline(__always)
    func span(_ index: Int) -> Range<Int>? {
        precondition(index >= 0 && index < count, "capture group index out of range")
        if let overflow {
            let start = overflow[2 * index], end = overflow[2 * index + 1]
            return start < 0 || end < start ? nil : start..<end
        }
        return withUnsafeBytes(of: inline) { raw in
            let start = raw.load(fromByteOffset: 8 * index, as: UInt32.self)
            let end = raw.load(fromByteOffset: 8 * index + 4, as: UInt32.self)
            return start == Self.unset || end == Self.unset || end < start ? nil : Int(start)..<Int(end)
        }
    }
}
