/// Why a request body does not decode as the type asked for, and where: ``field`` is a path such as
/// `items[2].name`, or `$` for the whole body.
public struct JSONBodyError: Error, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Equatable, Sendable {
        /// The body is not JSON.
        case malformed(JSONSyntaxError)
        /// The member has the wrong type or a value its type refuses: `expected` names what belongs there.
        case invalidField(expected: String, reason: String)
        /// A required member is absent.
        case missingField
        /// The type never asked for this member.
        case unknownField
        /// The string `value` is not a date-time of the member's format.
        case invalidDate(value: String, DateTimeError)
    }

    /// What is wrong.
    public let problem: Problem
    /// Where: the member's path, `$` for the whole body.
    public let field: String

    /// Creates an error.
    public init(_ problem: Problem, field: String) {
        self.problem = problem
        self.field = field
    }

    /// The error a `DecodingError` from decoding a tree stands for.
    init(_ error: DecodingError) {
        switch error {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            self.init(.invalidField(expected: String(describing: type), reason: context.debugDescription),
                      field: FieldPath.render(context.codingPath))
        case .keyNotFound(let key, let context):
            self.init(.missingField, field: FieldPath.render(context.codingPath + [key]))
        case .dataCorrupted(let context):
            if let date = context.underlyingError as? DateField {
                self.init(.invalidDate(value: date.text, date.error), field: FieldPath.render(context.codingPath))
            } else {
                self.init(.invalidField(expected: "a valid value", reason: context.debugDescription),
                          field: FieldPath.render(context.codingPath))
            }
        @unknown default:
            self.init(.invalidField(expected: "a valid value", reason: String(describing: error)), field: "$")
        }
    }

    public var description: String {
        switch problem {
        case .malformed(let syntax):
            "the body is not valid JSON: \(syntax.reason) at line \(syntax.line), column \(syntax.column)"
        case .invalidField(_, let reason): "invalid field \"\(field)\": \(reason)"
        case .missingField: "missing required field \"\(field)\""
        case .unknownField: "unknown field \"\(field)\""
        case .invalidDate(let value, let error): "\(field) \"\(value)\" is not a date-time: \(error)"
        }
    }
}
