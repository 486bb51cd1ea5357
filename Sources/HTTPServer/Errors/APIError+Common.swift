import Foundation
import JSON

extension APIError {
    /// 404 `not_found`.
    public static func notFound(_ message: String = "no such resource", detail: JSONValue? = nil) -> APIError {
        APIError(.notFound, status: .notFound, message: message, detail: detail)
    }

    /// 400 `bad_request`.
    public static func badRequest(_ message: String, detail: JSONValue? = nil) -> APIError {
        APIError(.badRequest, status: .badRequest, message: message, detail: detail)
    }

    /// 405 `method_not_allowed` with an `Allow` header listing `allowed`.
    static func methodNotAllowed(_ method: HTTPMethod, path: String, allowed: [HTTPMethod]) -> APIError {
        let names = allowed.map(\.rawValue)
        return APIError(
            .methodNotAllowed, status: .methodNotAllowed,
            message: "\(method) is not allowed on \(path)",
            detail: .object(["allowed": .array(names.map { .string($0) })]),
            headers: ["Allow": names.joined(separator: ", ")]
        )
    }

    /// 404 `not_found` for a path no route matches.
    static func noRoute(_ method: HTTPMethod, path: String) -> APIError {
        APIError(.notFound, status: .notFound, message: "no endpoint \(method) \(path)", detail: .object(["path": .string(path)]))
    }

    /// 413 `payload_too_large`.
    static func payloadTooLarge(limit: Int) -> APIError {
        APIError(
            .payloadTooLarge, status: .payloadTooLarge,
            message: "the request body is larger than \(limit) bytes",
            detail: .object(["limit_bytes": .int(limit)])
        )
    }

    /// 401 `unauthorized`, with `WWW-Authenticate: Bearer`.
    static func unauthorized(_ message: String) -> APIError {
        APIError(.unauthorized, status: .unauthorized, message: message, headers: ["WWW-Authenticate": "Bearer"])
    }

    /// 503 `unavailable`: the server stopped before the handler finished.
    static let shuttingDown = APIError(.unavailable, status: .serviceUnavailable, message: "the server is shutting down")

    /// 500 `internal` for an unexpected error; `detail` carries its description.
    package static func `internal`(_ error: any Error) -> APIError {
        APIError(
            .internal, status: .internalServerError,
            message: "internal error",
            detail: .object(["error": .string(String(describing: error)), "type": .string(String(reflecting: type(of: error)))])
        )
    }
}
