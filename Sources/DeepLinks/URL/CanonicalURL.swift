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
    /// Byte range of the query in `source`, without the `?`.
    let queryRange: Range<Int>?
    /// Byte length of the scheme.
    let schemeLength: Int
    /// Whether the URL had an authority (`scheme://...`) rather than only `scheme:path`.
    public let hasAuthority: Bool
    /// Byte offset in `subject` where the path starts (after scheme, `://` and host).
    let pathStart: Int
    /// Byte offset in `subject` where the first path segment ends (== `pathStart` for an empty path).
    let firstSegmentEnd: Int

    init(source: String, subject: UnsafeBufferPointer<UInt8>, layout: CanonicalLayout) {
        self.source = source
        self.subject = String(decoding: subject, as: UTF8.self)
        self.queryRange = layout.queryRange
        self.schemeLength = layout.schemeLength
        self.hasAuthority = layout.hasAuthority
        self.pathStart = layout.pathStart
        self.firstSegmentEnd = layout.firstSegmentEnd
    }

    /// The byte layout, for matching.
    var layout: CanonicalLayout {
        CanonicalLayout(length: subject.utf8.count, schemeLength: schemeLength, hasAuthority: hasAuthority,
                        pathStart: pathStart, firstSegmentEnd: firstSegmentEnd, queryRange: queryRange)
    }

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
        var text = hasAuthority ? "\(scheme)://\(host)" : "\(scheme):"
        let path = subject.utf8.dropFirst(pathStart)
        if !path.isEmpty {
            var pieces = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            let leadingSlash = hasAuthority || path.first == UInt8(ascii: "/")
            if leadingSlash { pieces.removeFirst() }
            let encoded = pieces.map {
                PercentEncoding.encode(CanonicalURL.unescapeSubject(Substring($0)), allowed: PercentEncoding.pathSegmentAllowed)
            }
            text += (leadingSlash ? "/" : "") + encoded.joined(separator: "/")
        }
        if !queryItems.isEmpty {
            text += "?" + queryItems.map(\.encoded).joined(separator: "&")
        }
        return text
    }

    public var description: String { string }

    /// Turns a piece of `subject` back into decoded text: `%2F` is `/` and `%25` is `%`.
    static func unescapeSubject(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var bytes = text.utf8[...]
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "%"), bytes.count >= 2 {
                let high = PercentEncoding.hexValue(bytes.removeFirst()) ?? 0
                let low = PercentEncoding.hexValue(bytes.removeFirst()) ?? 0
                output.append(high << 4 | low)
            } else {
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
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
        PercentEncoding.encode(name, allowed: PercentEncoding.queryComponentAllowed) + "="
            + PercentEncoding.encode(value, allowed: PercentEncoding.queryComponentAllowed)
    }

    public var description: String { "\(name)=\(value)" }
}
