/// Finds bytes eight at a time, for the short runs (query items, values) where a call to
/// `memchr` costs more than the scan.
enum WordScan {
    /// The offset of the first `byte` in `start..<end` of `base`, or `end`.
    @inline(__always)
    static func firstIndex(of byte: UInt8, in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        firstIndex(in: base, from: start, to: end) { zeroBytes($0 ^ repeated(byte)) }
    }

    /// The offset of the first `a` or `b` in `start..<end` of `base`, or `end`.
    @inline(__always)
    static func firstIndex(of a: UInt8, or b: UInt8, in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        firstIndex(in: base, from: start, to: end) { zeroBytes($0 ^ repeated(a)) | zeroBytes($0 ^ repeated(b)) }
    }

    /// The first offset in `start..<end` whose byte `marks` marks (0x80 in its byte of the word,
    /// exact for the lowest marked byte), or `end`. Full words, then the last bytes one at a time.
    @inline(__always)
    private static func firstIndex(in base: UnsafePointer<UInt8>, from start: Int, to end: Int,
                                   _ marks: (UInt64) -> UInt64) -> Int {
        let raw = UnsafeRawPointer(base)
        var offset = start
        while offset + 8 <= end {
            let found = marks(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            if found != 0 { return offset + found.trailingZeroBitCount / 8 }
            offset += 8
        }
        while offset < end {
            if marks(UInt64(base[offset])) & 0x80 != 0 { return offset }
            offset += 1
        }
        return end
    }

    /// 0x80 in the lowest zero byte of `word` (and maybe in later bytes): exact for the first one.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- repeated(0x01)) & ~word & repeated(0x80)
    }

    @inline(__always)
    private static func repeated(_ byte: UInt8) -> UInt64 { UInt64(byte) &* 0x0101_0101_0101_0101 }
}
