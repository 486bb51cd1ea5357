/// Turns URL strings into the `CanonicalURL` form route patterns are matched against.
///
/// The rules, in order:
/// 1. The URL must be at most `maxURLLength` UTF-8 bytes (its fragment included) and start with
///    `scheme:`; its bytes before any `#` must be UTF-8 (always so for a `String`; a URL routed as
///    bytes may not be).
/// 2. The fragment (`#...`) is ignored.
/// 3. Scheme and host are case-insensitive: both are lower-cased. The default port of `http` (80)
///    and `https` (443) is removed. User information (`user@host`), `%` and spaces in the host are
///    refused. Unencoded control characters anywhere are refused.
/// 4. The path is split into segments at `/` **before** percent-decoding, so `%2F` stays inside
///    its segment. Each segment is then decoded and must be UTF-8; `+` is not a space in a path.
/// 5. Trailing slashes are ignored: `myapp://task/42/` and `myapp://task/42//` are
///    `myapp://task/42`, and `myapp://widget/` is `myapp://widget`. Empty segments elsewhere
///    (`a//b`) and dot segments (`.`, `..`) are kept as they are.
/// 6. The query is split at `&`; each item at its first `=` (`?flag` is `flag` with an empty value);
///    `+` is a space; names and values are percent-decoded and must be UTF-8; empty items (`&&`)
///    and items with an empty name are dropped; repeated names are kept, in order.
/// 7. No decoded segment, query name or query value may exceed `maxParameterLength` bytes.
/// Anything else (an invalid `%` escape, bytes that do not decode to UTF-8) is a
/// `CanonicalizationFailure`, never a crash.
///
/// When a URL breaks several rules, the failure reported is always the same one: length, then UTF-8, then scheme,
/// then unencoded control characters, then host, then the path's segments and the query's items in order.
public struct URLCanonicalizer: Sendable, Hashable {
    /// The longest URL accepted, in UTF-8 bytes.
    public var maxURLLength: Int
    /// The longest decoded path segment, query name or query value accepted, in UTF-8 bytes.
    public var maxParameterLength: Int

    /// Creates a canonicalizer with the given limits.
    public init(maxURLLength: Int = 4096, maxParameterLength: Int = 1024) {
        self.maxURLLength = maxURLLength
        self.maxParameterLength = maxParameterLength
    }

    /// Canonicalizes `url`.
    /// - Throws: `CanonicalizationFailure` saying why the URL cannot be routed.
    public func canonicalize(_ url: String) throws(CanonicalizationFailure) -> CanonicalURL {
        var source = url
        let original = url
        let result = source.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bytes.count, 1)) { buffer in
                Result { () throws(CanonicalizationFailure) in
                    // An already canonical URL (the usual case) is its own subject: copied, not derived.
                    let layout: CanonicalLayout
                    if let verbatim = self.verbatimLayout(bytes), let input = bytes.baseAddress {
                        buffer.baseAddress!.update(from: input, count: verbatim.length)
                        layout = verbatim
                    } else {
                        layout = try self.layout(bytes, into: buffer)
                    }
                    return CanonicalURL(source: original, subject: UnsafeBufferPointer(rebasing: buffer[0..<layout.length]),
                                        layout: layout, canonicalizer: self)
                }
            }
        }
        return try result.get()
    }

    /// Writes the canonical subject of the URL `bytes` into `output` (at least as long as `bytes`)
    /// and validates the query, without allocating.
    ///
    /// One pass over the bytes (`fastLayout`); only a URL that pass refuses goes through the
    /// rule-by-rule `referenceLayout`, which says why.
    func layout(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) throws(CanonicalizationFailure) -> CanonicalLayout {
        if let layout = fastLayout(bytes, into: output) { return layout }
        return try referenceLayout(bytes, into: output)
    }
}

/// Where the parts of a canonical subject are, in bytes.
struct CanonicalLayout: Sendable, Hashable {
    /// The subject's length.
    var length: Int
    var schemeLength: Int
    var hasAuthority: Bool
    /// Where the path starts (after scheme, `://` and host).
    var pathStart: Int
    /// Where the first path segment ends (== `pathStart` for an empty path).
    var firstSegmentEnd: Int
    /// The query's byte range in the URL, without the `?`.
    var queryRange: Range<Int>?
    /// Whether the subject is the URL's first `length` bytes unchanged (nothing lower-cased, decoded
    /// or removed before the trailing slashes), so parameters can be read from the URL itself.
    var isVerbatim: Bool
    /// The path's bytes in the URL: from its start (after the scheme and host as written) to its
    /// `?`, `#` or end, without trailing slashes. The subject's path (from `pathStart` to `length`)
    /// is these bytes with escapes decoded (but `%2F` and `%25`).
    var urlPath: Range<Int>
}
