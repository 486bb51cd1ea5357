import CDeepLinks

/// Makes a string of at most 15 ASCII bytes in two words, the form the standard library gives
/// such a string on 64-bit machines ("small": its bytes inline, no storage to allocate or count).
///
/// A path parameter is most often a few ASCII bytes (`1042`, `proj-launch`); made through
/// `String(unsafeUninitializedCapacity:initializingUTF8With:)`, a value like that cost as much as
/// routing a URL's key (a closure, a copy, a check for ASCII). Here it is the bytes loaded into two
/// words (one load for the first eight, then one per byte), a check of their high bits and an `or`.
///
/// The form is the standard library's: the bytes in order from the first word's lowest byte on,
/// and the second word's top byte `0xE0 | count` (immortal, small, ASCII). That layout is part of
/// Swift's ABI on 64-bit machines (inlinable code depends on it), but nothing is assumed: `check()`
/// compares the words made here with those of strings the standard library made itself, for every
/// length from 0 to 15, and until it has found them equal `make` returns nil, so callers fall back
/// to the standard library. Building a route table runs the check.
enum SmallASCIIString {
    /// The longest string made here.
    static let capacity = 15

    /// Whether the check found the words made here to be those the standard library makes. Kept
    /// in a C variable: read as a Swift global computed once, it was a call to `swift_once` on
    /// every read (on Linux), one for every parameter a match reads.
    @inline(__always)
    static var isAvailable: Bool { cdeeplinks_small_strings() == 1 }

    /// Compares the words made here with the standard library's, once; `isAvailable` then says
    /// what it found. Safe to call from any thread, any number of times.
    static func check() {
        guard cdeeplinks_small_strings() == 0 else { return }
        cdeeplinks_set_small_strings(layoutMatches() ? 1 : 2)
    }

    /// Whether the standard library's small strings of 0 to 15 ASCII bytes are the words
    /// `make` would build.
    static func layoutMatches() -> Bool {
        #if _endian(little) && _pointerBitWidth(_64)
        guard MemoryLayout<String>.size == 16 else { return false }
        let sample = Array("0123456789abcdef".utf8)
        return sample.withUnsafeBufferPointer { sample in
            (0...capacity).allSatisfy { count in
                let made = String(decoding: UnsafeBufferPointer(rebasing: sample[0..<count]), as: UTF8.self)
                let words = unsafeBitCast(made, to: (UInt64, UInt64).self)
                let bytes = bytes(sample.baseAddress!, count: count)
                return words.0 == bytes.low && words.1 == bytes.high | tag(count)
            }
        }
        #else
        return false
        #endif
    }

    /// The string of the `count` bytes at `base`, or nil when they are more than 15, not all
    /// ASCII, or this machine's strings are not laid out as expected.
    @inline(__always)
    static func make(_ base: UnsafePointer<UInt8>, count: Int) -> String? {
        guard count <= capacity, isAvailable else { return nil }
        let bytes = bytes(base, count: count)
        guard (bytes.low | bytes.high) & 0x8080_8080_8080_8080 == 0 else { return nil }
        return string(bytes.low, bytes.high | tag(count))
    }

    /// The string of `bytes[span]`, as `make(_:count:)` makes it, reading the bytes in one or two
    /// words: the last eight bytes of the span, which may begin before it (a URL's parameter has
    /// the scheme before it), shifted down, and for more than eight the first eight. A loop over the
    /// bytes is left for a span ending in the buffer's first eight bytes.
    @inline(__always)
    static func make(_ bytes: UnsafeBufferPointer<UInt8>, _ span: Range<Int>) -> String? {
        let count = span.count
        guard let base = bytes.baseAddress, count > 0, span.upperBound >= 8 else {
            return bytes.baseAddress.flatMap { make($0 + span.lowerBound, count: count) }
        }
        guard count <= capacity, isAvailable else { return nil }
        let last = UInt64(littleEndian: UnsafeRawPointer(base + (span.upperBound &- 8)).loadUnaligned(as: UInt64.self))
        let low: UInt64, high: UInt64
        if count <= 8 {
            (low, high) = (last &>> UInt64(truncatingIfNeeded: 8 &* (8 &- count)), 0)
        } else {
            low = UInt64(littleEndian: UnsafeRawPointer(base + span.lowerBound).loadUnaligned(as: UInt64.self))
            high = last &>> UInt64(truncatingIfNeeded: 8 &* (16 &- count))
        }
        guard (low | high) & 0x8080_8080_8080_8080 == 0 else { return nil }
        return string(low, high | tag(count))
    }

    /// The string whose words are `low` and `high`, moved out of them: made by `unsafeBitCast`, it
    /// was copied on its way out (a call to retain it, which a small string does not need, and
    /// which the caller's release then undid).
    @inline(__always)
    private static func string(_ low: UInt64, _ high: UInt64) -> String {
        var words = (low, high)
        return withUnsafeMutablePointer(to: &words) { words in
            words.withMemoryRebound(to: String.self, capacity: 1) { $0.move() }
        }
    }

    /// The top byte of a small ASCII string of `count` bytes: immortal, small, ASCII, the count.
    @inline(__always)
    private static func tag(_ count: Int) -> UInt64 { UInt64(truncatingIfNeeded: 0xE0 | count) &<< 56 }

    /// The `count` (≤ 15) bytes at `base` in two words, as a small string holds them.
    @inline(__always)
    private static func bytes(_ base: UnsafePointer<UInt8>, count: Int) -> (low: UInt64, high: UInt64) {
        var low: UInt64 = 0, high: UInt64 = 0
        if count >= 8 {
            low = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self))
            var index = 8
            while index < count {
                high |= UInt64(base[index]) &<< UInt64(truncatingIfNeeded: 8 &* (index &- 8))
                index &+= 1
            }
        } else {
            var index = 0
            while index < count {
                low |= UInt64(base[index]) &<< UInt64(truncatingIfNeeded: 8 &* index)
                index &+= 1
            }
        }
        return (low, high)
    }
}
