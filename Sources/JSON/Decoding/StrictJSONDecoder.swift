import Foundation

/// Decodes request bodies into `Decodable` types, rejecting anything the type does not expect.
///
/// The body is first parsed into a ``JSONValue`` tree by a strict RFC 8259 parser (no trailing commas, no
/// duplicate member names, exact positions), then decoded from the tree while recording which members the type
/// read. A body the type does not take throws a ``JSONBodyError``:
///
/// | problem | when |
/// |---|---|
/// | `malformed` | not JSON, empty, not UTF-8 (with offset, line and column) |
/// | `invalidField` | wrong JSON type, out-of-range number, null for a required value, a value the type's own `init(from:)` rejects with a `DecodingError` |
/// | `missingField` | a required member is absent |
/// | `unknownField` | a member the type never asked for (checked after a successful decode) |
/// | `invalidDate` | a string where a date belongs that is not a date-time of ``DateTimeFormat/instant`` (see ``DateTimeText``) |
///
/// Field paths look like `items[2].name`; the body itself is `$`. Any other error a type's `init(from:)` throws
/// propagates unchanged (the HTTP layer passes its own errors through this way).
public struct StrictJSONDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// Decodes `data` as `T`.
    /// - Parameters:
    ///   - type: The request type.
    ///   - data: The request body.
    /// - Returns: The decoded value; nothing else happens, so a rejected body has no side effect.
    /// - Throws: ``JSONBodyError`` as described above, or what `T`'s `init(from:)` throws.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let tree: JSONValue
        do {
            tree = try JSONParser.parse(data)
        } catch let error as JSONSyntaxError {
            throw JSONBodyError(.malformed(error), field: "$")
        }
        let usage = MemberUsage()
        let value: T
        do {
            value = try JSONTreeDecoder(value: tree, codingPath: [], usage: usage).decode(type)
        } catch let error as DecodingError {
            throw JSONBodyError(error)
        }
        if let field = usage.firstUnread() {
            throw JSONBodyError(.unknownField, field: field)
        }
        return value
    }
}
