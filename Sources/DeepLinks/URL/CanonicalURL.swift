/// A URL in the canonical form routes are matched against.
///
/// Produced by `URLCanonicalizer`; see its documentation for the rules. Route patterns are matched
/// against `subject`: `scheme://host` followed by the path, each segment percent-decoded except
/// that a decoded `/` stays `%2F` and a decoded `%` stays `%25`, so a path parameter can hold a slash.
public struct CanonicalURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL as given (the query is decoded from it on demand).
    let source: String
    /// What route patterns match: scheme, host and decoded path (see the type's discussion).
    public let subject: String
    /// Where the parts of `subject` (and the query of `source`) are.
    let layout: CanonicalLayout
    /// The canonicalizer that produced this form (its limits), to derive it again from `source`.
    let canonicalizer: URLCanonicalizer

    init(source: String, subject: UnsafeBufferPointer<UInt8>, layout: CanonicalLayout, canonicalizer: URLCanonicalizer) {
        self.source = source
        self.subject = String(decoding: subject, as: UTF8.self)
        self.layout = layout
        self.canonicalizer = canonicalizer
    }

    /// Whether the URL had an authority (`scheme://...`) rather than only `scheme:path`.
    public var hasAuthority: Bool { layout.hasAuthority }
    var schemeLength: Int { layout.schemeLength }
    var pathStart: Int { layout.pathStart }
    var queryRange: Range<Int>? { layout.queryRange }

    /// The scheme, lower-cased (`myapp`, `https`).
    public var scheme: String { String(subject.utf8.prefix(schemeLength))! }

    /// The host, lower-cased, with the scheme's default port removed; empty when there is none.
    public var host: String {
        hasAuthority ? String(subject.utf8.dropFirst(schemeLength + 3).prefix(pathStart - schemeLength - 3))! : ""
    }

    /// The query items in their original order, decoded (`+` is a space); repeated names repeat.
    public var queryItems: [QueryItem] {
        guard let queryRange else { return [] }
        var source = source
        return source.withUTF8 { QueryParser.parse($0, from: queryRange.lowerBound, to: queryRange.upperBound) }
    }

    public static func == (lhs: CanonicalURL, rhs: CanonicalURL) -> Bool {
        lhs.subject == rhs.subject && lhs.queryItems == rhs.queryItems
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(subject)
        hasher.combine(queryItems)
    }

    /// The decoded path segments (`myapp://task/a%2Fb` has the one segment `a/b`).
    public var pathSegments: [String] {
        let path = subject.utf8.dropFirst(pathStart)
        guard !path.isEmpty else { return [] }
        var pieces = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        if hasAuthority || path.first == UInt8(ascii: "/") { pieces.removeFirst() }
        return pieces.map { CanonicalURL.unescapeSubject(Substring($0)) }
    }

    /// The values of the query items named `name`, in order.
    public func queryValues(_ name: String) -> [String] {
        queryItems.filter { $0.name == name }.map(\.value)
    }

    /// The canonical URL as a string: ASCII, percent-encoded with upper-case hex, no fragment,
    /// no trailing slash, query items in their original order as `name=value`.
    public var string: String {
        verbatimString ?? encodedString
    }

    /// ``string`` built piece by piece: each path segment and query item decoded and encoded again.
    var encodedString: String {
        let subjectBytes = Array(subject.utf8)
        var text: [UInt8] = []
        text.reserveCapacity(subjectBytes.count + (queryRange?.count ?? 0) + 8)
        text.append(contentsOf: subjectBytes[..<schemeLength])
        if hasAuthority {
            text.append(contentsOf: "://".utf8)
            text.append(contentsOf: subjectBytes[(schemeLength + 3)..<pathStart])
        } else {
            text.append(UInt8(ascii: ":"))
        }
        let path = subjectBytes[pathStart...]
        if !path.isEmpty {
            var pieces = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            let leadingSlash = hasAuthority || path.first == UInt8(ascii: "/")
            if leadingSlash {
                pieces.removeFirst()
                text.append(UInt8(ascii: "/"))
            }
            for (index, piece) in pieces.enumerated() {
                if index > 0 { text.append(UInt8(ascii: "/")) }
                let decoded = piece.withUnsafeBufferPointer { CanonicalURL.unescapeSubject($0, 0..<$0.count) }
                PercentEncoding.append(decoded, allowed: PercentEncoding.pathSegmentAllowed, to: &text)
            }
        }
        for (index, item) in queryItems.enumerated() {
            text.append(UInt8(ascii: index == 0 ? "?" : "&"))
            item.appendEncoded(to: &text)
        }
        return String(decoding: text, as: UTF8.self)
    }

    public var description: String { string }

    /// Turns a piece of `subject` back into decoded text: `%2F` is `/` and `%25` is `%`.
    static func unescapeSubject(_ text: Substring) -> String {
        var text = text
        return text.withUTF8 { unescapeSubject($0, 0..<$0.count) }
    }

    /// Turns `range` of a subject back into decoded text: `%2F` is `/` and `%25` is `%` (the only
    /// escapes a subject has). Also decodes every escape of a URL's own path bytes, for spans moved
    /// onto the URL (`RouteHit.movedOntoURL`).
    static func unescapeSubject(_ subject: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let piece = UnsafeBufferPointer(rebasing: subject[range])
        guard let base = piece.baseAddress,
              WordScan.firstIndex(of: UInt8(ascii: "%"), in: base, from: 0, to: piece.count) < piece.count else { return string(piece) }
        if piece.count <= 32 {
            // The usual short value, decoded on the stack.
            var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            return withUnsafeMutableBytes(of: &words) { raw in
                let output = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                return string(UnsafeBufferPointer(start: output, count: unescape(piece, into: output)))
            }
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: piece.count) { output in
            string(UnsafeBufferPointer(start: output.baseAddress!, count: unescape(piece, into: output.baseAddress!)))
        }
    }

    /// Decodes the escapes of `piece` into `output` (room for `piece.count` bytes); returns the length.
    @inline(__always)
    private static func unescape(_ piece: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) -> Int {
        var length = 0
        var index = 0
        while index < piece.count {
            let byte = piece[index]
            if byte == UInt8(ascii: "%"), index + 2 < piece.count {
                let high = PercentEncoding.hexValue(piece[index + 1]) ?? 0
                let low = PercentEncoding.hexValue(piece[index + 2]) ?? 0
                output[length] = high << 4 | low
                index += 3
            } else {
                output[length] = byte
                index += 1
            }
            length += 1
        }
        return length
    }

    /// `String(decoding: bytes, as: UTF8.self)`, cheaper for the usual short ASCII value: up to 15
    /// ASCII bytes are made into a small string in two words (`SmallASCIIString`); other strings
    /// of up to 15 bytes are written in place, and the standard library checks ASCII a word at a
    /// time instead of validating UTF-8 (it still repairs anything else, as `decoding:` does).
    @inline(__always)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return "" }
        if let small = SmallASCIIString.make(base, count: bytes.count) { return small }
        return copied(bytes)
    }

    /// `string(UnsafeBufferPointer(rebasing: bytes[span]))`, reading a short value in one or two
    /// words (`SmallASCIIString.make(_:_:)`): for a parameter, whose span lies inside the URL.
    @inline(__always)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ span: Range<Int>) -> String {
        guard !span.isEmpty else { return "" }
        if let small = SmallASCIIString.make(bytes, span) { return small }
        return copied(UnsafeBufferPointer(rebasing: bytes[span]))
    }

    /// The bytes as a string made by the standard library (which checks ASCII a word at a time and
    /// repairs invalid UTF-8 as `decoding:` does).
    private static func copied(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { output in
            output.baseAddress!.update(from: bytes.baseAddress!, count: bytes.count)
            return bytes.count
        }
    }
}

/// One `name=value` item of a query string, decoded.
public struct QueryItem: Sendable, Hashable, CustomStringConvertible {
    /// The decoded name.
    public var name: String
    /// The decoded value; empty for `?flag` as for `?flag=`.
    public var value: String

    /// Creates an item.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// The item percent-encoded for a query string.
    var encoded: String {
        var text: [UInt8] = []
        appendEncoded(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends ``encoded`` to `text`.
    func appendEncoded(to text: inout [UInt8]) {
        PercentEncoding.append(name, allowed: PercentEncoding.queryComponentAllowed, to: &text)
        text.append(UInt8(ascii: "="))
        PercentEncoding.append(value, allowed: PercentEncoding.queryComponentAllowed, to: &text)
    }

    public var description: String { "\(name)=\(value)" }
}
