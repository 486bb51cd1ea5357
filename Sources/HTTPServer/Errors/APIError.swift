import Foundation
import JSON

/// An error a handler throws to answer with a 4xx or 5xx status and a JSON body
/// `{"code": "...", "message": "...", "detail": ...}`.
///
/// `code` is stable (clients switch on it), `message` is for people and may change, `detail` is optional
/// structured context (`null` when absent). Any other error a handler throws becomes a 500 `internal`
/// error whose `detail` is the error's description.
public struct APIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable error code such as `not_found`.
    public struct Code: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The code as sent in the body.
        public let rawValue: String

        /// Creates a code; prefer the predefined ones, and keep new ones `snake_case`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Creates a code from a string literal.
        public init(stringLiteral value: String) {
            self.rawValue = value
        }

        public var description: String { rawValue }

        /// 400: the request is wrong in a way no more specific code describes.
        public static let badRequest: Code = "bad_request"
        /// 400: the body is not JSON.
        public static let malformedJSON: Code = "malformed_json"
        /// 400: a field has the wrong type or an unacceptable value.
        public static let invalidField: Code = "invalid_field"
        /// 400: a required field is absent.
        public static let missingField: Code = "missing_field"
        /// 400: the body has a field the endpoint does not know.
        public static let unknownField: Code = "unknown_field"
        /// 401: the bearer token is missing or wrong.
        public static let unauthorized: Code = "unauthorized"
        /// 404: no such path or resource.
        public static let notFound: Code = "not_found"
        /// 405: the path exists but not with this method (the `Allow` header lists the methods).
        public static let methodNotAllowed: Code = "method_not_allowed"
        /// 413: the body is larger than the server accepts.
        public static let payloadTooLarge: Code = "payload_too_large"
        /// 500: a bug; `detail` has the underlying error.
        public static let `internal`: Code = "internal"
        /// 503: the server is shutting down.
        public static let unavailable: Code = "unavailable"
    }

    /// The stable code.
    public var code: Code
    /// The HTTP status to answer with.
    public var status: HTTPStatus
    /// A human-readable explanation.
    public var message: String
    /// Structured context, or nil (sent as `null`).
    public var detail: JSONValue?
    /// Extra response header fields, e.g. `Allow` for 405 or `WWW-Authenticate` for 401.
    public var headers: HTTPHeaders

    /// Creates an error.
    public init(_ code: Code, status: HTTPStatus, message: String, detail: JSONValue? = nil, headers: HTTPHeaders = [:]) {
        self.code = code
        self.status = status
        self.message = message
        self.detail = detail
        self.headers = headers
    }

    public var description: String { "\(status.rawValue) \(code.rawValue): \(message)" }

    /// The error as a JSON response.
    public var response: HTTPResponse {
        let members: [String: JSONValue] = [
            "code": .string(code.rawValue),
            "message": .string(message),
            "detail": detail ?? .null,
        ]
        var response = HTTPResponse(status: status, headers: headers, body: Data(JSONValue.object(members).canonicalText.utf8))
        response.headers["Content-Type"] = "application/json"
        return response
    }
}
