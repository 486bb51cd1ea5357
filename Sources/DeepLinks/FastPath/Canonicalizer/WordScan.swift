/// Finds bytes eight at a time, for the short runs (URL parts, query items, values) where a call
/// to `memchr` costs more than the scan; and the word operations the verbatim URL check shares.
enum WordScan {
    /// The offset of the first `byte` in `start..<end` of `base`, or `end`.
    @inline(__always)
    static func firstIndex(of byte: UInt8, in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        firstIndex(in: base, from: start, to: end, { firstZeroByte($0 ^ repeated(byte)) }, { $0 == byte })
    }

    /// The offset of the first `a` or `b` in `start..<end` of `base`, or `end`.
    @inline(__always)
    static func firstIndex(of a: UInt8, or b: UInt8, in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        firstIndex(in: base, from: start, to: end, { firstZeroByte($0 ^ repeated(a)) | firstZeroByte($0 ^ repeated(b)) },
                   { $0 == a || $0 == b })
    }

    /// The offset of the first byte in `start..<end` of `base` that is `a`, `b` or not ASCII, or `end`.
    @inline(__always)
    static func firstIndex(ofNonASCIIOr a: UInt8, or b: UInt8, in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        firstIndex(in: base, from: start, to: end, { firstZeroByte($0 ^ repeated(a)) | firstZeroByte($0 ^ repeated(b)) | $0 & repeated(0x80) },
                   { $0 == a || $0 == b || $0 >= 0x80 })
    }

    /// The first offset in `start..<end` whose byte `marks` marks in a word (0x80 in its byte,
    /// exact for the lowest marked byte) and `matches` accepts alone, or `end`. Full words, then the
    /// last bytes one at a time.
    @inline(__always)
    private static func firstIndex(in base: UnsafePointer<UInt8>, from start: Int, to end: Int,
                                   _ marks: (UInt64) -> UInt64, _ matches: (UInt8) -> Bool) -> Int {
        let raw = UnsafeRawPointer(base)
        var offset = start
        while offset + 8 <= end {
            let found = marks(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            if found != 0 { return offset + found.trailingZeroBitCount / 8 }
            offset += 8
        }
        while offset < end {
            if matches(base[offset]) { return offset }
            offset += 1
        }
        return end
    }

    /// Whether `count` bytes at `a` and at `b` are equal: eight at a time, the last word
    /// overlapping the one before it; byte by byte when fewer than eight (no call to `memcmp`,
    /// which costs more than the comparison for the short keys, names and words compared here).
    @inline(__always)
    static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard count >= 8 else {
            var index = 0
            while index < count {
                if a[index] != b[index] { return false }
                index &+= 1
            }
            return true
        }
        let left = UnsafeRawPointer(a), right = UnsafeRawPointer(b)
        var offset = 0
        while offset &+ 8 < count {
            if left.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                return false
            }
            offset &+= 8
        }
        return left.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) == right.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    }

    /// 0x80 in the first (lowest) zero byte of `word`, possibly also in later bytes, 0 when no
    /// byte is zero: exact for the lowest set bit and for "is there a zero byte", in three operations.
    @inline(__always)
    static func firstZeroByte(_ word: UInt64) -> UInt64 {
        (word &- repeated(0x01)) & ~word & repeated(0x80)
    }

    /// 0x80 in exactly the zero bytes of `word` (five operations).
    @inline(__always)
    static func exactZeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & repeated(0x7F)) &+ repeated(0x7F)) | word) & repeated(0x80)
    }

    /// The number of bytes marked 0x80 (and nothing else) in `marks`, summed in the top byte by a
    /// multiplication (`nonzeroBitCount` is a loop on the baseline x86-64 the package builds for).
    @inline(__always)
    static func markedByteCount(_ marks: UInt64) -> Int {
        Int(truncatingIfNeeded: ((marks &>> 7) &* repeated(0x01)) &>> 56)
    }

    /// `byte` in each of the eight bytes of a word.
    @inline(__always)
    static func repeated(_ byte: UInt8) -> UInt64 { UInt64(byte) &* 0x0101_0101_0101_0101 }
}
