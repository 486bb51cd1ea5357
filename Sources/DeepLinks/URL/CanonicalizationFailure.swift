/// Why a URL has no canonical form, and so matches no route.
public enum CanonicalizationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL is empty.
    case empty
    /// The URL is longer than the limit, in UTF-8 bytes.
    case urlTooLong(length: Int, limit: Int)
    /// There is no `scheme:` at the start.
    case missingScheme
    /// The host contains a `%`, a space, a control character or user information (`user@`).
    case invalidHost(String)
    /// A `%` not followed by two hex digits, at this byte offset of the URL.
    case invalidPercentEncoding(offset: Int)
    /// The percent-decoded bytes of the component starting at this byte offset are not UTF-8.
    case invalidUTF8(offset: Int)
    /// The URL's own bytes (before any fragment) are not UTF-8 from this byte offset on: only a URL
    /// routed as bytes (`RouteTable.withMatch(utf8:)`) can be; a `String`'s bytes are UTF-8.
    case notUTF8(offset: Int)
    /// A control character (U+0000–U+001F, U+007F) appears unencoded at this byte offset.
    case controlCharacter(offset: Int)
    /// A decoded path segment, query name or query value is longer than the limit, in UTF-8 bytes.
    case parameterTooLong(length: Int, limit: Int)

    public var description: String {
        switch self {
        case .empty: "the URL is empty"
        case let .urlTooLong(length, limit): "the URL is \(length) bytes long; the limit is \(limit)"
        case .missingScheme: "the URL has no scheme"
        case let .invalidHost(host): "invalid host \"\(host)\""
        case let .invalidPercentEncoding(offset): "invalid percent-encoding at byte \(offset)"
        case let .invalidUTF8(offset): "the component at byte \(offset) does not decode to UTF-8"
        case let .notUTF8(offset): "the URL is not UTF-8 at byte \(offset)"
        case let .controlCharacter(offset): "unencoded control character at byte \(offset)"
        case let .parameterTooLong(length, limit): "a decoded parameter is \(length) bytes long; the limit is \(limit)"
        }
    }
}
