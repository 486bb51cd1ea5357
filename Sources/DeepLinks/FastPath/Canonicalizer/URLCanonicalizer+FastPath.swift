#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private let slash = UInt8(ascii: "/")
private let percent = UInt8(ascii: "%")
private let question = UInt8(ascii: "?")
private let numberSign = UInt8(ascii: "#")
private let ampersand = UInt8(ascii: "&")
private let equals = UInt8(ascii: "=")

extension URLCanonicalizer {
    /// The rules of `URLCanonicalizer` in one pass over the URL's bytes: the subject is written to
    /// `output` (at least as long as `bytes`) as the bytes are read, and the query is validated
    /// without being decoded, except escapes of non-ASCII bytes, whose UTF-8 must be checked.
    ///
    /// Agrees with `referenceLayout` on every input (the tests compare them on generated and
    /// fuzz-like URLs) except that it does not say why a URL fails.
    /// - Returns: the layout, or nil when the URL breaks a rule.
    func fastLayout(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> CanonicalLayout? {
        let count = bytes.count
        guard count > 0, count <= maxURLLength, output.count >= count,
              let input = bytes.baseAddress, let out = output.baseAddress else { return nil }
        let limit = maxParameterLength
        // OR of the URL's own non-ASCII bytes before any `#` (the scheme has none): when set, they must be UTF-8 as
        // given. Always so for a `String`; bytes routed as they are (`RouteTable.withMatch(utf8:)`) may not be,
        // and an escape and a stray byte can make UTF-8 together once decoded, so decoded checks are not enough.
        var rawBits: UInt8 = 0

        let classes = ByteClasses.shared

        // Scheme, lower-cased.
        guard URLBytes.isAlpha(input[0]) else { return nil }
        var index = 0
        while index < count, classes.flags(input[index]) & ByteClasses.scheme != 0 {
            out[index] = classes.lowercased(input[index])
            index += 1
        }
        guard index < count, input[index] == UInt8(ascii: ":") else { return nil }
        let schemeEnd = index
        out[index] = UInt8(ascii: ":")
        index += 1
        var written = index

        // Host, lower-cased, without the scheme's default port.
        let hasAuthority = index + 1 < count && input[index] == slash && input[index + 1] == slash
        if hasAuthority {
            out[written] = slash
            out[written + 1] = slash
            written += 2
            index += 2
            let hostStart = written
            // `out` and `input` advance together here: `shifted[index]` is `out[written]`.
            let shifted = out + (written - index)
            while index < count, classes.flags(input[index]) & ByteClasses.hostStop == 0 {
                shifted[index] = classes.lowercased(input[index])
                rawBits |= input[index]
                index += 1
            }
            written = shifted + index - out
            if index < count, input[index] != slash, input[index] != question, input[index] != numberSign { return nil }
            written -= Self.defaultPortLength(out, schemeLength: schemeEnd, host: hostStart..<written)
        }

        // Path: segments decoded one by one; a decoded `/` or `%` stays escaped.
        let pathStart = written
        let rawPathStart = index
        var segmentStart = written
        var decodedLength = 0
        var segmentBits: UInt8 = 0  // OR of the segment's bytes: >= 0x80 when its UTF-8 must be checked
        var slashes = 0
        var firstSegmentEnd: Int?
        while index < count {
            // A run of plain ASCII bytes, copied as they are.
            let shifted = out + (written - index)
            let runStart = index
            while index < count, classes.flags(input[index]) & ByteClasses.pathStop == 0 {
                shifted[index] = input[index]
                index += 1
            }
            written += index - runStart
            decodedLength += index - runStart
            guard index < count else { break }
            let byte = input[index]
            if byte == slash {
                guard decodedLength <= limit,
                      segmentBits < 0x80 || URLBytes.isValidUTF8(UnsafeBufferPointer(start: out + segmentStart, count: written - segmentStart))
                else { return nil }
                slashes += 1
                // A path that does not start with `/` (scheme:path) has its first segment before the first `/`.
                if firstSegmentEnd == nil, slashes == 2 || index > rawPathStart { firstSegmentEnd = written }
                out[written] = slash
                written += 1
                index += 1
                segmentStart = written
                decodedLength = 0
                segmentBits = 0
                continue
            }
            if byte == question || byte == numberSign { break }
            if byte == percent {
                guard index + 2 < count, let high = PercentEncoding.hexValue(input[index + 1]),
                      let low = PercentEncoding.hexValue(input[index + 2]) else { return nil }
                let decoded = high << 4 | low
                if decoded == slash || decoded == percent {
                    out[written] = percent
                    out[written + 1] = UInt8(ascii: "2")
                    out[written + 2] = decoded == slash ? UInt8(ascii: "F") : UInt8(ascii: "5")
                    written += 3
                } else {
                    out[written] = decoded
                    written += 1
                    segmentBits |= decoded
                }
                index += 3
            } else {
                if byte < 0x20 || byte == 0x7F { return nil }
                out[written] = byte
                written += 1
                segmentBits |= byte
                rawBits |= byte
                index += 1
            }
            decodedLength += 1
        }
        guard decodedLength <= limit,
              segmentBits < 0x80 || URLBytes.isValidUTF8(UnsafeBufferPointer(start: out + segmentStart, count: written - segmentStart))
        else { return nil }
        // Trailing slashes are ignored. Only a `/` of the URL writes a `/`, so trimming the subject is
        // trimming the URL's path.
        let untrimmed = written
        while written > pathStart, out[written - 1] == slash { written -= 1 }
        let urlPath = rawPathStart..<(index - (untrimmed - written))

        var queryRange: Range<Int>?
        if index < count, input[index] == question {
            index += 1
            let queryStart = index
            // The decoded query is checked in the spare room after the subject, which is at least as
            // long as the query: the subject is never longer than the URL before its `?`.
            guard let end = Self.validateQuery(input, from: queryStart, count: count, limit: limit,
                                               scratch: out + written, rawBits: &rawBits) else { return nil }
            queryRange = queryStart..<end
            index = end
        }
        if rawBits >= 0x80, !URLBytes.isValidUTF8(UnsafeBufferPointer(start: input, count: index)) { return nil }
        let firstEnd = max(min(firstSegmentEnd ?? written, written), pathStart)
        return CanonicalLayout(length: written, schemeLength: schemeEnd, hasAuthority: hasAuthority, pathStart: pathStart,
                               firstSegmentEnd: firstEnd, queryRange: queryRange, isVerbatim: memcmp(out, input, written) == 0,
                               urlPath: urlPath)
    }

    /// Checks every query component from `start` to the fragment or the end: escapes, control
    /// characters, decoded length, and the UTF-8 of components with escapes of non-ASCII bytes; ORs
    /// the query's own non-ASCII bytes into `rawBits`.
    /// - Returns: where the query ends (a `#` or `count`), or nil when a rule is broken.
    @inline(__always)
    private static func validateQuery(_ input: UnsafePointer<UInt8>, from start: Int, count: Int, limit: Int,
                                      scratch: UnsafeMutablePointer<UInt8>, rawBits: inout UInt8) -> Int? {
        var index = start
        var componentStart = start
        var decodedLength = 0
        var hasEscape = false
        var decodedBits: UInt8 = 0  // OR of all bytes
        var inValue = false
        let classes = ByteClasses.shared
        while true {
            let runStart = index
            while index < count, classes.flags(input[index]) & ByteClasses.queryStop == 0 { index += 1 }
            decodedLength += index - runStart
            let byte: UInt8 = index < count ? input[index] : numberSign
            if byte == ampersand || byte == numberSign || (byte == equals && !inValue) {
                guard decodedLength <= limit else { return nil }
                // Only escapes can break UTF-8 in bytes that came from a Swift String (as the reference does).
                if hasEscape, decodedBits >= 0x80,
                   !decodedComponentIsUTF8(input, componentStart..<index, scratch: scratch) { return nil }
                if byte == numberSign { return index }
                inValue = byte == equals
                index += 1
                componentStart = index
                decodedLength = 0
                hasEscape = false
                decodedBits = 0
                continue
            }
            if byte == percent {
                guard index + 2 < count, let high = PercentEncoding.hexValue(input[index + 1]),
                      let low = PercentEncoding.hexValue(input[index + 2]) else { return nil }
                hasEscape = true
                decodedBits |= high << 4 | low
                index += 3
            } else {
                if byte < 0x20 || byte == 0x7F { return nil }
                decodedBits |= byte
                rawBits |= byte
                index += 1
            }
            decodedLength += 1
        }
    }

    /// Percent-decodes `range` of `input` (already checked) into `scratch` and checks it is UTF-8.
    private static func decodedComponentIsUTF8(_ input: UnsafePointer<UInt8>, _ range: Range<Int>,
                                               scratch: UnsafeMutablePointer<UInt8>) -> Bool {
        var length = 0
        var index = range.lowerBound
        while index < range.upperBound {
            if input[index] == percent {
                scratch[length] = PercentEncoding.hexValue(input[index + 1])! << 4 | PercentEncoding.hexValue(input[index + 2])!
                index += 3
            } else {
                scratch[length] = input[index]
                index += 1
            }
            length += 1
        }
        return URLBytes.isValidUTF8(UnsafeBufferPointer(start: scratch, count: length))
    }

    /// The length of a `:443` (https) or `:80` (http) suffix of the lower-cased host, or 0.
    @inline(__always)
    private static func defaultPortLength(_ subject: UnsafeMutablePointer<UInt8>, schemeLength: Int, host: Range<Int>) -> Int {
        func has(_ text: StaticString, at offset: Int) -> Bool {
            memcmp(subject + offset, text.utf8Start, text.utf8CodeUnitCount) == 0
        }
        if schemeLength == 5, host.count > 4, has("https", at: 0), has(":443", at: host.upperBound - 4) { return 4 }
        if schemeLength == 4, host.count > 3, has("http", at: 0), has(":80", at: host.upperBound - 3) { return 3 }
        return 0
    }
}
