import Foundation
import JSON

/// One HTTP request as a handler sees it: fully read, body included.
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The path as sent, still percent-encoded, without the query string (e.g. `/v1/instances/a%20b`).
    /// Path parameters are decoded; see ``PathParameters``.
    public var path: String
    /// The query items in order, names and values percent-decoded (`+` read as a space).
    /// A value is nil for an item without `=`.
    public var queryItems: [URLQueryItem]
    /// The request header fields.
    public var headers: HTTPHeaders
    /// The request body (empty when there is none).
    public var body: Data
    /// The peer, as `address:port` (`[address]:port` for IPv6), or `unix` for a Unix-socket peer;
    /// nil when unknown.
    public var remoteAddress: String?
    /// An identifier for this request, also sent back as the `X-Request-Id` response header and logged.
    public var id: String

    /// Creates a request; the server builds these, tests of handlers may too.
    public init(
        method: HTTPMethod,
        path: String,
        queryItems: [URLQueryItem] = [],
        headers: HTTPHeaders = [:],
        body: Data = Data(),
        remoteAddress: String? = nil,
        id: String = "test"
    ) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.id = id
    }

    /// The value of the first query item named `name`, or nil when absent or valueless.
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// Decodes the body as JSON into `type`, strictly: see `StrictJSONDecoder`.
    /// - Throws: ``APIError`` (400 `malformed_json`, `invalid_field`, `missing_field`, `unknown_field`, 422
    ///   `invalid_date`; see ``APIError/init(_:)``), ready to be thrown on from a handler.
    public func decode<T: Decodable>(_ type: T.Type, using decoder: StrictJSONDecoder = StrictJSONDecoder()) throws -> T {
        try APIError.decodingBody(as: type) { try decoder.decode(type, from: body) }
    }
}
