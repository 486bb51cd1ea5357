private let slash = UInt8(ascii: "/")
private let question = UInt8(ascii: "?")

extension URLCanonicalizer {
    /// The layout of a URL that is already in canonical form, whose subject is therefore the URL's
    /// own first `length` bytes: nothing to lower-case, decode or remove but trailing slashes.
    ///
    /// Most URLs a widget hands out are like that (`myapp://task/42`,
    /// `https://example.com/task/42?source=stack`), and then the subject need not be written
    /// anywhere. One word-at-a-time scan shows that no byte needs work (no `%`, space, control
    /// character, non-ASCII byte or fragment) and finds the query; the scheme, host and first path
    /// segment are then read byte by byte to find where they end and that they are lower-case.
    ///
    /// Conservative: nil means only "not shown canonical here" (the URL may still be valid), and
    /// the caller goes on with `layout(_:into:)`. It also refuses, rather than reproduce,
    /// the rarer cases: `!`, `"`, `$` anywhere, user information or a port in the host, and paths
    /// or queries longer than `maxParameterLength`. When it answers, it agrees with `fastLayout`
    /// and `referenceLayout` (the tests compare them).
    @inline(__always)
    func verbatimLayout(_ bytes: UnsafeBufferPointer<UInt8>) -> CanonicalLayout? {
        let count = bytes.count
        guard count > 0, count <= maxURLLength, let input = bytes.baseAddress else { return nil }
        guard let queryMark = Self.plainBytesQueryMark(input, count: count) else { return nil }

        let classes = ByteClasses.shared
        guard input[0] >= UInt8(ascii: "a"), input[0] <= UInt8(ascii: "z") else { return nil }
        var index = 1
        while index < queryMark, classes.flags(input[index]) & ByteClasses.canonicalScheme != 0 { index += 1 }
        guard index < queryMark, input[index] == UInt8(ascii: ":") else { return nil }
        let schemeEnd = index
        index += 1

        let hasAuthority = index + 1 < queryMark && input[index] == slash && input[index + 1] == slash
        if hasAuthority {
            guard let hostEnd = Self.canonicalHostEnd(input, from: index + 2, count: count) else { return nil }
            index = hostEnd
        }
        let pathStart = index
        guard queryMark - pathStart <= maxParameterLength, count - queryMark <= maxParameterLength + 1 else { return nil }

        // The first segment ends at the first `/` after the path's first byte (as in `fastLayout`).
        let firstSegmentEnd = Self.firstSlash(input, from: pathStart + 1, to: queryMark)
        var length = queryMark
        while length > pathStart, input[length - 1] == slash { length -= 1 }
        let queryRange: Range<Int>? = queryMark < count ? (queryMark + 1)..<count : nil
        return CanonicalLayout(length: length, schemeLength: schemeEnd, hasAuthority: hasAuthority, pathStart: pathStart,
                               firstSegmentEnd: max(min(firstSegmentEnd, length), pathStart), queryRange: queryRange,
                               isVerbatim: true)
    }

    /// Where a host starting at `start` ends (at `/`, `?` or the end), eight bytes at a time;
    /// nil when it holds an upper-case letter, `@` or `:` (a port), which the full pass handles.
    /// Every byte is known to be in `&`...`~`.
    @inline(__always)
    private static func canonicalHostEnd(_ input: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int? {
        let raw = UnsafeRawPointer(input)
        var index = start
        while index + 8 <= count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let stops = zeroBytes(word ^ repeated(slash)) | zeroBytes(word ^ repeated(question))
            let refused = upperCaseBytes(word) | zeroBytes(word ^ repeated(UInt8(ascii: "@"))) | zeroBytes(word ^ repeated(UInt8(ascii: ":")))
            if stops != 0 {
                // Only the bytes before the first stop belong to the host.
                guard refused & ((stops & (0 &- stops)) &- 1) == 0 else { return nil }
                return index + stops.trailingZeroBitCount / 8
            }
            guard refused == 0 else { return nil }
            index += 8
        }
        let classes = ByteClasses.shared
        while index < count, classes.flags(input[index]) & ByteClasses.canonicalHostStop == 0 { index += 1 }
        guard index == count || input[index] == slash || input[index] == question else { return nil }
        return index
    }

    /// The offset of the first `/` in `start..<end`, or `end`, eight bytes at a time.
    @inline(__always)
    private static func firstSlash(_ input: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        let raw = UnsafeRawPointer(input)
        var index = start
        while index + 8 <= end {
            let slashes = zeroBytes(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) ^ repeated(slash))
            if slashes != 0 { return index + slashes.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < end, input[index] != slash { index += 1 }
        return index
    }

    /// 0x80 in each byte of `word` that is an upper-case ASCII letter, for bytes below 0x80 (no
    /// sum below carries into the next byte).
    @inline(__always)
    private static func upperCaseBytes(_ word: UInt64) -> UInt64 {
        (word &+ repeated(0x80 - 0x41)) & ~(word &+ repeated(0x80 - 0x5B)) & repeated(0x80)
    }

    /// Scans `count` bytes eight at a time.
    /// - Returns: the offset of the first `?` (or `count`), or nil when a byte is outside
    ///   `&`...`~` (space, `!`, `"`, `#`, `$`, `%`, control characters and non-ASCII bytes).
    @inline(__always)
    private static func plainBytesQueryMark(_ input: UnsafePointer<UInt8>, count: Int) -> Int? {
        let raw = UnsafeRawPointer(input)
        var queryMark = -1
        var offset = 0
        // Each word is checked whole; a last partial word is read as the last eight bytes (so it
        // overlaps bytes already checked, which changes nothing) or, for a short URL, padded.
        while offset < count {
            let word: UInt64
            let base: Int
            if offset + 8 <= count {
                word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                base = offset
            } else if count >= 8 {
                word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
                base = count - 8
            } else {
                var padded = Self.repeated(UInt8(ascii: "a"))
                withUnsafeMutableBytes(of: &padded) { $0.baseAddress!.copyMemory(from: raw, byteCount: count) }
                word = UInt64(littleEndian: padded)
                base = 0
            }
            offset += 8
            if Self.hasByteOutsidePlainRange(word) { return nil }
            if queryMark < 0 {
                let marks = Self.zeroBytes(word ^ Self.repeated(question))
                if marks != 0 { queryMark = base + marks.trailingZeroBitCount / 8 }
            }
        }
        return queryMark < 0 ? count : queryMark
    }

    /// Whether a byte of `word` is below `&` (0x26) or above `~` (0x7E). A borrow or carry between
    /// bytes only starts at a byte that is itself outside, so the answer is exact.
    @inline(__always)
    private static func hasByteOutsidePlainRange(_ word: UInt64) -> Bool {
        ((word &- repeated(0x26)) | word | (word &+ repeated(0x01))) & repeated(0x80) != 0
    }

    /// 0x80 in each byte of `word` that is zero, 0 in the others.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & repeated(0x7F)) &+ repeated(0x7F)) | word | repeated(0x7F))
    }

    @inline(__always)
    private static func repeated(_ byte: UInt8) -> UInt64 { UInt64(byte) &* 0x0101_0101_0101_0101 }
}
