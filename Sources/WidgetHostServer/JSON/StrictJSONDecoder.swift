import Foundation
import WidgetHost

/// Decodes request bodies into `Decodable` types, rejecting anything the type does not expect.
///
/// The body is first parsed into a `JSONValue` tree by a strict RFC 8259 parser (no trailing commas, no
/// duplicate member names, exact positions), then decoded from the tree while recording which members
/// the type read. The errors are ``APIError``s with status 400:
///
/// | code | when | detail |
/// |---|---|---|
/// | `malformed_json` | not JSON, empty, not UTF-8 | `reason`, `offset`, `line`, `column` |
/// | `invalid_field` | wrong JSON type, out-of-range number, null for a required value, a value the type's own `init(from:)` rejects | `field`, `expected`, `reason` |
/// | `missing_field` | a required member is absent | `field` |
/// | `unknown_field` | a member the type never asked for (checked after a successful decode) | `field` |
///
/// and, with status 422, `invalid_date` for a string where a date-time belongs that is not an instant of the
/// documented format (`field`, `in`, `value`, `reason`, `offset`; see ``DateTimeText``).
///
/// Field paths look like `items[2].name`; the body itself is `$`.
public struct StrictJSONDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// Decodes `data` as `T`.
    /// - Parameters:
    ///   - type: The request type.
    ///   - data: The request body.
    /// - Returns: The decoded value; nothing else happens, so a rejected body has no side effect.
    /// - Throws: ``APIError`` as described above.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let tree: JSONValue
        do {
            tree = try JSONParser.parse(data)
        } catch let error as JSONSyntaxError {
            throw APIError(
                .malformedJSON, status: .badRequest,
                message: "the body is not valid JSON: \(error.reason) at line \(error.line), column \(error.column)",
                detail: .object([
                    "reason": .string(error.reason), "offset": .int(error.offset),
                    "line": .int(error.line), "column": .int(error.column),
                ])
            )
        }
        let usage = MemberUsage()
        let value: T
        do {
            value = try JSONTreeDecoder(value: tree, codingPath: [], usage: usage).decode(type)
        } catch let error as DecodingError {
            throw Self.apiError(for: error)
        } catch let error as APIError {
            throw error
        } catch {
            throw Self.invalidField("$", expected: String(describing: type), reason: String(describing: error))
        }
        if let field = usage.firstUnread() {
            throw APIError(
                .unknownField, status: .badRequest,
                message: "unknown field \"\(field)\"",
                detail: .object(["field": .string(field)])
            )
        }
        return value
    }

    private static func invalidField(_ field: String, expected: String, reason: String) -> APIError {
        APIError(
            .invalidField, status: .badRequest,
            message: "invalid field \"\(field)\": \(reason)",
            detail: .object(["field": .string(field), "expected": .string(expected), "reason": .string(reason)])
        )
    }

    static func apiError(for error: DecodingError) -> APIError {
        switch error {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return invalidField(FieldPath.render(context.codingPath), expected: String(describing: type), reason: context.debugDescription)
        case .keyNotFound(let key, let context):
            let field = FieldPath.render(context.codingPath + [key])
            return APIError(
                .missingField, status: .badRequest,
                message: "missing required field \"\(field)\"",
                detail: .object(["field": .string(field)])
            )
        case .dataCorrupted(let context):
            if let field = context.underlyingError as? DateField {
                return .invalidDate(FieldPath.render(context.codingPath), in: "body", value: field.text, field.error)
            }
            return invalidField(FieldPath.render(context.codingPath), expected: "a valid value", reason: context.debugDescription)
        @unknown default:
            return invalidField("$", expected: "a valid value", reason: String(describing: error))
        }
    }
}
