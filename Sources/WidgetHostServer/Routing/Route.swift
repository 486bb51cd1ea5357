/// An asynchronous endpoint handler.
///
/// Throw ``APIError`` for a 4xx/5xx JSON answer; any other error becomes a 500 `internal` error.
public typealias HTTPHandler = @Sendable (HTTPRequest, PathParameters) async throws -> HTTPResponse

/// One registered endpoint: a method, a path template and its handler.
public struct Route: Sendable {
    /// The method it answers (`GET` routes also answer `HEAD`).
    public let method: HTTPMethod
    /// The path template.
    public let template: PathTemplate
    /// The handler.
    public let handler: HTTPHandler

    /// `METHOD /template`, e.g. `GET /v1/instances/{id}/entry`: the metrics `endpoint` label and log name.
    public var endpoint: String { "\(method) \(template)" }
}
