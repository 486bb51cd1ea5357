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
        guard let schemeEnd = Self.canonicalSchemeEnd(input, queryMark: queryMark, count: count) else { return nil }
        var index = schemeEnd + 1

        let hasAuthority = index + 1 < queryMark && input[index] == slash && input[index + 1] == slash
        if hasAuthority {
            guard let hostEnd = Self.canonicalHostEnd(input, from: index + 2, count: count) else { return nil }
            index = hostEnd
        }
        let pathStart = index
        guard queryMark - pathStart <= maxParameterLength, count - queryMark <= maxParameterLength + 1 else { return nil }

        // The first segment ends at the first `/` after the path's first byte (as in `fastLayout`).
        let firstSegmentEnd = WordScan.firstIndex(of: slash, in: input, from: pathStart + 1, to: queryMark)
        var length = queryMark
        while length > pathStart, input[length - 1] == slash { length -= 1 }
        let queryRange: Range<Int>? = queryMark < count ? (queryMark + 1)..<count : nil
        return CanonicalLayout(length: length, schemeLength: schemeEnd, hasAuthority: hasAuthority, pathStart: pathStart,
                               firstSegmentEnd: max(min(firstSegmentEnd, length), pathStart), queryRange: queryRange,
                               isVerbatim: true, urlPath: pathStart..<length)
    }

    /// Where a canonical scheme (a lower-case letter, then lower-case letters, digits, `+`, `-`,
    /// `.`) ends at its `:` before `queryMark`, or nil. Every byte is known to be in `&`...`~`.
    ///
    /// A scheme of up to seven letters and digits (`myapp:`, `https:`) is checked in the first
    /// word at once; others byte by byte.
    @inline(__always)
    private static func canonicalSchemeEnd(_ input: UnsafePointer<UInt8>, queryMark: Int, count: Int) -> Int? {
        guard input[0] >= UInt8(ascii: "a"), input[0] <= UInt8(ascii: "z") else { return nil }
        if count >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(input).loadUnaligned(as: UInt64.self))
            let colons = WordScan.firstZeroByte(word ^ WordScan.repeated(UInt8(ascii: ":")))
            if colons != 0 {
                let colon = colons.trailingZeroBitCount / 8
                // 0x80 in each byte before the colon; each must be a lower-case letter or a digit.
                let before = ((colons & (0 &- colons)) &- 1) & WordScan.repeated(0x80)
                if colon < queryMark, (lowerCaseOrDigitBytes(word) & before) == before { return colon }
            }
        }
        let classes = ByteClasses.shared
        var index = 1
        while index < queryMark, classes.flags(input[index]) & ByteClasses.canonicalScheme != 0 { index += 1 }
        guard index < queryMark, input[index] == UInt8(ascii: ":") else { return nil }
        return index
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
            let stops = WordScan.firstZeroByte(word ^ WordScan.repeated(slash)) | WordScan.firstZeroByte(word ^ WordScan.repeated(question))
            // A false mark of `firstZeroByte` lies above a true one of the same byte, which is refused
            // too or lies past the stop, so only marks below the first stop count.
            let refused = upperCaseBytes(word) | WordScan.firstZeroByte(word ^ WordScan.repeated(UInt8(ascii: "@"))) | WordScan.firstZeroByte(word ^ WordScan.repeated(UInt8(ascii: ":")))
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

    /// 0x80 in each byte of `word` that is a lower-case ASCII letter or a digit, for bytes below
    /// 0x80.
    @inline(__always)
    private static func lowerCaseOrDigitBytes(_ word: UInt64) -> UInt64 {
        let lower = (word &+ WordScan.repeated(0x80 - 0x61)) & ~(word &+ WordScan.repeated(0x80 - 0x7B))
        let digit = (word &+ WordScan.repeated(0x80 - 0x30)) & ~(word &+ WordScan.repeated(0x80 - 0x3A))
        return (lower | digit) & WordScan.repeated(0x80)
    }

    /// 0x80 in each byte of `word` that is an upper-case ASCII letter, for bytes below 0x80 (no
    /// sum below carries into the next byte).
    @inline(__always)
    private static func upperCaseBytes(_ word: UInt64) -> UInt64 {
        (word &+ WordScan.repeated(0x80 - 0x41)) & ~(word &+ WordScan.repeated(0x80 - 0x5B)) & WordScan.repeated(0x80)
    }

    /// Scans `count` bytes eight at a time.
    /// - Returns: the offset of the first `?` (or `count`), or nil when a byte is outside
    ///   `&`...`~` (space, `!`, `"`, `#`, `$`, `%`, control characters and non-ASCII bytes).
    @inline(__always)
    private static func plainBytesQueryMark(_ input: UnsafePointer<UInt8>, count: Int) -> Int? {
        guard count >= 8 else { return shortPlainBytesQueryMark(input, count: count) }
        let raw = UnsafeRawPointer(input)
        // Words until the one with the `?`; the last word is the URL's last eight bytes, which may
        // overlap bytes already checked (they hold no `?`, so a `?` found there is the first).
        var offset = 0
        while true {
            let base = min(offset, count - 8)
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base, as: UInt64.self))
            if hasByteOutsidePlainRange(word) { return nil }
            let marks = WordScan.firstZeroByte(word ^ WordScan.repeated(question))
            offset = base + 8
            if marks != 0 {
                let queryMark = base + marks.trailingZeroBitCount / 8
                // The rest of the query needs the range check only.
                while offset < count {
                    let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: min(offset, count - 8), as: UInt64.self))
                    if hasByteOutsidePlainRange(word) { return nil }
                    offset += 8
                }
                return queryMark
            }
            if offset >= count { return count }
        }
    }

    /// `plainBytesQueryMark` for URLs of fewer than eight bytes: one padded word.
    private static func shortPlainBytesQueryMark(_ input: UnsafePointer<UInt8>, count: Int) -> Int? {
        var padded = WordScan.repeated(UInt8(ascii: "a"))
        withUnsafeMutableBytes(of: &padded) { $0.baseAddress!.copyMemory(from: UnsafeRawPointer(input), byteCount: count) }
        let word = UInt64(littleEndian: padded)
        if hasByteOutsidePlainRange(word) { return nil }
        let marks = WordScan.firstZeroByte(word ^ WordScan.repeated(question))
        return marks == 0 ? count : marks.trailingZeroBitCount / 8
    }

    /// Whether a byte of `word` is below `&` (0x26) or above `~` (0x7E). A borrow or carry between
    /// bytes only starts at a byte that is itself outside, so the answer is exact.
    @inline(__always)
    static func hasByteOutsidePlainRange(_ word: UInt64) -> Bool {
        ((word &- WordScan.repeated(0x26)) | word | (word &+ WordScan.repeated(0x01))) & WordScan.repeated(0x80) != 0
    }
}
