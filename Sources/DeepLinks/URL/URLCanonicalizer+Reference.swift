extension URLCanonicalizer {
    /// Writes the canonical subject of the URL `bytes` into `output` (at least as long as `bytes`)
    /// and validates the query, without allocating, one rule at a time.
    ///
    /// The reference implementation of the rules: several passes over the bytes, checked in the order
    /// the rules are listed, so it reports the first problem by rule. `layout(_:into:)` runs the
    /// one-pass `fastLayout(_:into:)` and asks this one only why a URL failed (tests compare the two).
    func referenceLayout(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) throws(CanonicalizationFailure) -> CanonicalLayout {
        let count = bytes.count
        if count == 0 { throw .empty }
        if count > maxURLLength { throw .urlTooLong(length: count, limit: maxURLLength) }
        let fragment = bytes.firstIndex(of: UInt8(ascii: "#")) ?? count
        if let offset = URLBytes.firstInvalidUTF8(UnsafeBufferPointer(rebasing: bytes[0..<fragment])) { throw .notUTF8(offset: offset) }

        // Scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
        guard URLBytes.isAlpha(bytes[0]) else { throw .missingScheme }
        var index = 1
        while index < count, URLBytes.isSchemeCharacter(bytes[index]) { index += 1 }
        guard index < count, bytes[index] == UInt8(ascii: ":") else { throw .missingScheme }
        let schemeEnd = index
        index += 1

        var end = count
        var pathEnd = count
        for offset in 0..<count {
            let byte = bytes[offset]
            if byte < 0x20 || byte == 0x7F { throw .controlCharacter(offset: offset) }
            if byte == UInt8(ascii: "#") { end = offset; break }
            if byte == UInt8(ascii: "?"), pathEnd == count, offset >= index { pathEnd = offset }
        }
        pathEnd = min(pathEnd, end)
        let hasAuthority = index + 1 < pathEnd && bytes[index] == UInt8(ascii: "/") && bytes[index + 1] == UInt8(ascii: "/")
        var hostRange = index..<index
        if hasAuthority {
            var hostEnd = index + 2
            while hostEnd < pathEnd, bytes[hostEnd] != UInt8(ascii: "/") { hostEnd += 1 }
            hostRange = (index + 2)..<hostEnd
            for byte in bytes[hostRange] where byte == UInt8(ascii: "@") || byte == UInt8(ascii: "%") || byte == UInt8(ascii: " ") {
                throw .invalidHost(String(decoding: bytes[hostRange], as: UTF8.self))
            }
            hostRange = hostRange.lowerBound..<(hostRange.upperBound - defaultPortLength(bytes, scheme: 0..<schemeEnd, host: hostRange))
            index = hostEnd
        }
        // Trailing slashes are ignored (all of them, so the canonical form is a fixed point).
        var rawPathEnd = pathEnd
        while rawPathEnd > index, bytes[rawPathEnd - 1] == UInt8(ascii: "/") { rawPathEnd -= 1 }

        // Decoding never makes the subject longer than the URL: a `%XX` becomes one byte or stays three.
        var writer = SubjectWriter(output: output)
        for offset in 0..<schemeEnd { writer.append(URLBytes.lowercased(bytes[offset])) }
        writer.append(UInt8(ascii: ":"))
        if hasAuthority {
            writer.append(UInt8(ascii: "/"))
            writer.append(UInt8(ascii: "/"))
            for offset in hostRange { writer.append(URLBytes.lowercased(bytes[offset])) }
        }
        let pathStart = writer.count
        try writer.appendPath(bytes, from: index, to: rawPathEnd, maxSegmentLength: maxParameterLength)
        var queryRange: Range<Int>?
        if pathEnd < end {
            try QueryParser.validate(bytes, from: pathEnd + 1, to: end, maxLength: maxParameterLength)
            queryRange = (pathEnd + 1)..<end
        }
        let isVerbatim = (0..<writer.count).allSatisfy { output[$0] == bytes[$0] }
        return CanonicalLayout(length: writer.count, schemeLength: schemeEnd, hasAuthority: hasAuthority, pathStart: pathStart,
                               firstSegmentEnd: max(writer.firstSegmentEnd ?? writer.count, pathStart), queryRange: queryRange,
                               isVerbatim: isVerbatim, urlPath: index..<rawPathEnd)
    }

    /// The length of a `:443` (https) or `:80` (http) suffix of the host, or 0.
    private func defaultPortLength(_ bytes: UnsafeBufferPointer<UInt8>, scheme: Range<Int>, host: Range<Int>) -> Int {
        func schemeIs(_ name: StaticString) -> Bool {
            scheme.count == name.utf8CodeUnitCount
                && zip(bytes[scheme], UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)).allSatisfy { URLBytes.lowercased($0) == $1 }
        }
        func hostEnds(with port: StaticString) -> Bool {
            let suffix = UnsafeBufferPointer(start: port.utf8Start, count: port.utf8CodeUnitCount)
            return host.count > suffix.count && bytes[(host.upperBound - suffix.count)..<host.upperBound].elementsEqual(suffix)
        }
        if schemeIs("https"), hostEnds(with: ":443") { return 4 }
        if schemeIs("http"), hostEnds(with: ":80") { return 3 }
        return 0
    }
}

/// Writes a canonical subject into a buffer at least as long as the URL.
private struct SubjectWriter {
    let output: UnsafeMutableBufferPointer<UInt8>
    var count = 0
    /// Where the first path segment ended, once a second `/` was written.
    var firstSegmentEnd: Int?

    init(output: UnsafeMutableBufferPointer<UInt8>) { self.output = output }

    mutating func append(_ byte: UInt8) {
        output[count] = byte
        count += 1
    }

    /// Appends the path `bytes[start..<end]`, decoding each segment (see `URLCanonicalizer`).
    mutating func appendPath(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, maxSegmentLength: Int) throws(CanonicalizationFailure) {
        var segmentStart = count
        var rawSegmentStart = start
        var decodedLength = 0
        var offset = start
        var slashes = 0
        while offset < end {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "/") {
                try finishSegment(from: segmentStart, decodedLength: decodedLength, rawStart: rawSegmentStart, limit: maxSegmentLength)
                slashes += 1
                // A path that does not start with `/` (scheme:path) has its first segment before the first `/`.
                if firstSegmentEnd == nil, slashes == 2 || offset > start { firstSegmentEnd = count }
                append(byte)
                segmentStart = count
                rawSegmentStart = offset + 1
                decodedLength = 0
                offset += 1
                continue
            }
            if byte == UInt8(ascii: "%") {
                guard offset + 2 < bytes.count, let high = PercentEncoding.hexValue(bytes[offset + 1]),
                      let low = PercentEncoding.hexValue(bytes[offset + 2])
                else { throw .invalidPercentEncoding(offset: offset) }
                let decoded = high << 4 | low
                if decoded == UInt8(ascii: "/") || decoded == UInt8(ascii: "%") {
                    // A decoded `/` or `%` stays escaped so segments and escapes remain unambiguous.
                    append(UInt8(ascii: "%"))
                    append(UInt8(ascii: "2"))
                    append(decoded == UInt8(ascii: "/") ? UInt8(ascii: "F") : UInt8(ascii: "5"))
                } else {
                    append(decoded)
                }
                offset += 3
            } else {
                append(byte)
                offset += 1
            }
            decodedLength += 1
        }
        try finishSegment(from: segmentStart, decodedLength: decodedLength, rawStart: rawSegmentStart, limit: maxSegmentLength)
    }

    private func finishSegment(from start: Int, decodedLength: Int, rawStart: Int, limit: Int) throws(CanonicalizationFailure) {
        if decodedLength > limit { throw .parameterTooLong(length: decodedLength, limit: limit) }
        if !URLBytes.isValidUTF8(UnsafeBufferPointer(rebasing: output[start..<count])) { throw .invalidUTF8(offset: rawStart) }
    }
}
