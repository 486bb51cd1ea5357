/// Turns URL strings into the `CanonicalURL` form route patterns are matched against.
///
/// The rules, in order:
/// 1. The URL must be at most `maxURLLength` UTF-8 bytes and start with `scheme:`.
/// 2. The fragment (`#...`) is ignored.
/// 3. Scheme and host are case-insensitive: both are lower-cased. The default port of `http` (80)
///    and `https` (443) is removed. User information (`user@host`), `%`, spaces and control
///    characters in the host are refused.
/// 4. The path is split into segments at `/` **before** percent-decoding, so `%2F` stays inside
///    its segment. Each segment is then decoded and must be UTF-8; `+` is not a space in a path.
/// 5. Trailing slashes are ignored: `myapp://task/42/` and `myapp://task/42//` are
///    `myapp://task/42`, and `myapp://widget/` is `myapp://widget`. Empty segments elsewhere
///    (`a//b`) and dot segments (`.`, `..`) are kept as they are.
/// 6. The query is split at `&`; each item at its first `=` (`?flag` is `flag` with an empty value);
///    `+` is a space; names and values are percent-decoded and must be UTF-8; empty items (`&&`)
///    and items with an empty name are dropped; repeated names are kept, in order.
/// 7. No decoded segment or query value may exceed `maxParameterLength` bytes.
/// Anything else (an invalid `%` escape, bytes that do not decode to UTF-8, an unencoded control
/// character) is a `CanonicalizationFailure`, never a crash.
public struct URLCanonicalizer: Sendable, Hashable {
    /// The longest URL accepted, in UTF-8 bytes.
    public var maxURLLength: Int
    /// The longest decoded path segment or query value accepted, in UTF-8 bytes.
    public var maxParameterLength: Int

    /// Creates a canonicalizer with the given limits.
    public init(maxURLLength: Int = 4096, maxParameterLength: Int = 1024) {
        self.maxURLLength = maxURLLength
        self.maxParameterLength = maxParameterLength
    }

    /// Canonicalizes `url`.
    /// - Throws: `CanonicalizationFailure` saying why the URL cannot be routed.
    public func canonicalize(_ url: String) throws(CanonicalizationFailure) -> CanonicalURL {
        var url = url
        url.makeContiguousUTF8()
        let result = url.utf8.withContiguousStorageIfAvailable { canonicalize(bytes: $0) }!
        return try result.get()
    }

    private func canonicalize(bytes: UnsafeBufferPointer<UInt8>) -> Result<CanonicalURL, CanonicalizationFailure> {
        let count = bytes.count
        if count == 0 { return .failure(.empty) }
        if count > maxURLLength { return .failure(.urlTooLong(length: count, limit: maxURLLength)) }

        // Scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
        guard isAlpha(bytes[0]) else { return .failure(.missingScheme) }
        var index = 1
        while index < count, isSchemeCharacter(bytes[index]) { index += 1 }
        guard index < count, bytes[index] == UInt8(ascii: ":") else { return .failure(.missingScheme) }
        let schemeEnd = index
        index += 1

        var end = count
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { end = hash }
        var pathEnd = end
        if let question = bytes[index..<end].firstIndex(of: UInt8(ascii: "?")) { pathEnd = question }
        for offset in 0..<end where bytes[offset] < 0x20 || bytes[offset] == 0x7F {
            return .failure(.controlCharacter(offset: offset))
        }

        var subject: [UInt8] = []
        subject.reserveCapacity(end + 8)
        for offset in 0..<schemeEnd { subject.append(lowercased(bytes[offset])) }
        subject.append(UInt8(ascii: ":"))

        let hasAuthority = index + 1 < pathEnd
            && bytes[index] == UInt8(ascii: "/") && bytes[index + 1] == UInt8(ascii: "/")
        var host = ""
        if hasAuthority {
            index += 2
            var hostEnd = index
            while hostEnd < pathEnd, bytes[hostEnd] != UInt8(ascii: "/") { hostEnd += 1 }
            switch canonicalHost(bytes, index..<hostEnd, scheme: bytes[0..<schemeEnd]) {
            case .success(let value): host = value
            case .failure(let failure): return .failure(failure)
            }
            subject.append(contentsOf: "//".utf8)
            subject.append(contentsOf: host.utf8)
            index = hostEnd
        }
        let pathStart = subject.count

        // Trailing slashes are ignored (all of them, so the canonical form is a fixed point).
        var rawPathEnd = pathEnd
        while rawPathEnd > index, bytes[rawPathEnd - 1] == UInt8(ascii: "/") { rawPathEnd -= 1 }
        var segmentStart = subject.count
        var rawSegmentStart = index
        var segmentDecodedLength = 0
        var offset = index
        while offset < rawPathEnd {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "/") {
                if let failure = finishSegment(&subject, from: segmentStart, decodedLength: segmentDecodedLength, rawStart: rawSegmentStart) {
                    return .failure(failure)
                }
                rawSegmentStart = offset + 1
                subject.append(byte)
                segmentStart = subject.count
                segmentDecodedLength = 0
                offset += 1
                continue
            }
            var decoded = byte
            if byte == UInt8(ascii: "%") {
                guard offset + 2 < count, let high = PercentEncoding.hexValue(bytes[offset + 1]),
                      let low = PercentEncoding.hexValue(bytes[offset + 2])
                else { return .failure(.invalidPercentEncoding(offset: offset)) }
                decoded = high << 4 | low
                offset += 3
                // A decoded `/` or `%` stays escaped so segments and escapes remain unambiguous.
                if decoded == UInt8(ascii: "/") {
                    subject.append(contentsOf: "%2F".utf8)
                } else if decoded == UInt8(ascii: "%") {
                    subject.append(contentsOf: "%25".utf8)
                } else {
                    subject.append(decoded)
                }
            } else {
                subject.append(byte)
                offset += 1
            }
            segmentDecodedLength += 1
        }
        if let failure = finishSegment(&subject, from: segmentStart, decodedLength: segmentDecodedLength, rawStart: rawSegmentStart) {
            return .failure(failure)
        }
        var firstSegmentEnd = pathStart
        if firstSegmentEnd < subject.count, subject[firstSegmentEnd] == UInt8(ascii: "/") { firstSegmentEnd += 1 }
        while firstSegmentEnd < subject.count, subject[firstSegmentEnd] != UInt8(ascii: "/") { firstSegmentEnd += 1 }

        var items: [QueryItem] = []
        if pathEnd < end {
            switch parseQuery(bytes, from: pathEnd + 1, to: end) {
            case .success(let parsed): items = parsed
            case .failure(let failure): return .failure(failure)
            }
        }
        return .success(CanonicalURL(
            scheme: String(decoding: subject[0..<schemeEnd], as: UTF8.self),
            host: host,
            hasAuthority: hasAuthority,
            queryItems: items,
            subject: String(decoding: subject, as: UTF8.self),
            pathStart: pathStart,
            firstSegmentEnd: firstSegmentEnd
        ))
    }

    /// Checks a finished segment: its decoded length, and that its bytes are UTF-8.
    private func finishSegment(_ subject: inout [UInt8], from start: Int, decodedLength: Int, rawStart: Int) -> CanonicalizationFailure? {
        if decodedLength > maxParameterLength {
            return .parameterTooLong(length: decodedLength, limit: maxParameterLength)
        }
        var ascii = true
        for byte in subject[start...] where byte >= 0x80 {
            ascii = false
            break
        }
        if !ascii, String(validating: subject[start...], as: UTF8.self) == nil {
            return .invalidUTF8(offset: rawStart)
        }
        return nil
    }

    private func canonicalHost(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, scheme: Slice<UnsafeBufferPointer<UInt8>>) -> Result<String, CanonicalizationFailure> {
        var host: [UInt8] = []
        host.reserveCapacity(range.count)
        for byte in bytes[range] {
            if byte == UInt8(ascii: "@") || byte == UInt8(ascii: "%") || byte == UInt8(ascii: " ") {
                return .failure(.invalidHost(String(decoding: bytes[range], as: UTF8.self)))
            }
            host.append(lowercased(byte))
        }
        let schemeText = String(decoding: scheme, as: UTF8.self).lowercased()
        let defaultPort = schemeText == "https" ? ":443" : schemeText == "http" ? ":80" : nil
        if let defaultPort, host.count > defaultPort.utf8.count, host.suffix(defaultPort.utf8.count).elementsEqual(defaultPort.utf8) {
            host.removeLast(defaultPort.utf8.count)
        }
        return .success(String(decoding: host, as: UTF8.self))
    }

    private func parseQuery(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Result<[QueryItem], CanonicalizationFailure> {
        var items: [QueryItem] = []
        var itemStart = start
        while itemStart < end {
            var itemEnd = itemStart
            while itemEnd < end, bytes[itemEnd] != UInt8(ascii: "&") { itemEnd += 1 }
            if itemEnd > itemStart {
                var equals = itemStart
                while equals < itemEnd, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                let nameRange = itemStart..<equals
                let valueRange = min(equals + 1, itemEnd)..<itemEnd
                if valueRange.count > maxParameterLength * 3 || nameRange.count > maxParameterLength * 3 {
                    return .failure(.parameterTooLong(length: max(valueRange.count, nameRange.count), limit: maxParameterLength))
                }
                let name: String
                let value: String
                switch (decodeComponent(bytes, nameRange), decodeComponent(bytes, valueRange)) {
                case let (.success(decodedName), .success(decodedValue)):
                    name = decodedName
                    value = decodedValue
                case let (.failure(failure), _), let (_, .failure(failure)):
                    return .failure(failure)
                }
                let longest = max(name.utf8.count, value.utf8.count)
                if longest > maxParameterLength {
                    return .failure(.parameterTooLong(length: longest, limit: maxParameterLength))
                }
                if !name.isEmpty { items.append(QueryItem(name: name, value: value)) }
            }
            itemStart = itemEnd + 1
        }
        return .success(items)
    }

    private func decodeComponent(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Result<String, CanonicalizationFailure> {
        do {
            return .success(try PercentEncoding.decode(UnsafeBufferPointer(rebasing: bytes[range]), plusIsSpace: true))
        } catch .invalidEscape(let offset) {
            return .failure(.invalidPercentEncoding(offset: range.lowerBound + offset))
        } catch {
            return .failure(.invalidUTF8(offset: range.lowerBound))
        }
    }

    @inline(__always) private func isAlpha(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    @inline(__always) private func isSchemeCharacter(_ byte: UInt8) -> Bool {
        isAlpha(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    @inline(__always) private func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
