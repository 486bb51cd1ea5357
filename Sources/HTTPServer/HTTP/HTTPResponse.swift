import Foundation

/// What a handler answers: a status, header fields and a body.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: HTTPStatus
    /// Header fields. `Content-Length` and `Date` are added by libmicrohttpd.
    public var headers: HTTPHeaders
    /// The body bytes.
    public var body: Data

    /// Creates a response.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The encoder behind ``json(_:status:encoder:)``: sorted keys, unescaped slashes, ISO 8601 dates.
    public static func makeJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// A JSON response (`Content-Type: application/json`).
    ///
    /// A value that fails to encode is a bug in the handler: the response becomes a 500 `internal` error
    /// naming the encoding error rather than a crash.
    /// - Parameters:
    ///   - value: What to encode.
    ///   - status: The status code, 200 by default.
    ///   - encoder: The encoder; ``makeJSONEncoder()`` by default.
    public static func json<T: Encodable>(
        _ value: T,
        status: HTTPStatus = .ok,
        encoder: JSONEncoder = makeJSONEncoder()
    ) -> HTTPResponse {
        do {
            let body = try encoder.encode(value)
            return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
        } catch {
            return APIError.internal(error).response
        }
    }

    /// A plain-text response (`Content-Type: text/plain; charset=utf-8`).
    /// - Parameters:
    ///   - text: The body.
    ///   - status: The status code, 200 by default.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }
}
