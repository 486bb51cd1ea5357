import JSON

extension APIError.Code {
    /// 400: the request line or a header field holds a byte HTTP does not allow there: a NUL, a control byte, a space
    /// in the target (`detail.part`, `detail.field`, `detail.offset`, `detail.byte`). No handler ran.
    public static let malformedRequest: Self = "malformed_request"
    /// 422: a date-time in the body, the query or a header is not a real instant of the documented format
    /// (`detail.field`, `detail.in`, `detail.value`, `detail.reason`, `detail.offset`).
    public static let invalidDate: Self = "invalid_date"
}

extension APIError {
    /// The answer to a body that does not decode: 400 `malformed_json`, `invalid_field`, `missing_field` or
    /// `unknown_field`, or 422 `invalid_date`, each naming the member (`detail.field`).
    public init(_ error: JSONBodyError) {
        let field = error.field
        switch error.problem {
        case .malformed(let syntax):
            self.init(.malformedJSON, status: .badRequest, message: error.description, detail: [
                "reason": .string(syntax.reason), "offset": .int(syntax.offset),
                "line": .int(syntax.line), "column": .int(syntax.column),
            ])
        case .invalidField(let expected, let reason):
            self.init(.invalidField, status: .badRequest, message: error.description, detail: [
                "field": .string(field), "expected": .string(expected), "reason": .string(reason),
            ])
        case .missingField:
            self.init(.missingField, status: .badRequest, message: error.description, detail: ["field": .string(field)])
        case .unknownField:
            self.init(.unknownField, status: .badRequest, message: error.description, detail: ["field": .string(field)])
        case .invalidDate(let value, let dateError):
            self = .invalidDate(field, in: "body", value: value, dateError)
        }
    }

    /// 422 `invalid_date`: the date-time `value` of `field` (in the body, the query or a header) is not an instant of
    /// the documented format.
    public static func invalidDate(_ field: String, in place: String, value: String, _ error: DateTimeError) -> APIError {
        APIError(.invalidDate, status: .unprocessableContent,
                 message: "\(place) \(field) \"\(value)\" is not a date-time: \(error.reason) at byte \(error.offset)",
                 detail: ["field": .string(field), "in": .string(place), "value": .string(value),
                          "reason": .string(error.reason), "offset": .int(error.offset)])
    }

    /// Runs `decode` (a ``StrictJSONDecoder`` call), answering what it throws: a ``JSONBodyError`` as
    /// ``init(_:)``, an ``APIError`` a type's `init(from:)` threw as itself, anything else as 400 `invalid_field`
    /// for the whole body.
    public static func decodingBody<T>(as type: T.Type, _ decode: () throws -> T) throws -> T {
        do {
            return try decode()
        } catch let error as JSONBodyError {
            throw APIError(error)
        } catch let error as APIError {
            throw error
        } catch {
            let reason = String(describing: error)
            throw APIError(.invalidField, status: .badRequest, message: "invalid field \"$\": \(reason)", detail: [
                "field": "$", "expected": .string(String(describing: type)), "reason": .string(reason),
            ])
        }
    }
}
