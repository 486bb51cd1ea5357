import Foundation

/// One HTTP/2 request for ``HTTP2Client``: a POST of `body` to `path` on the client's endpoint.
public struct HTTP2Request: Sendable {
    /// Chosen by the caller, handed back with the answer.
    public var tag: UInt64
    /// The path, from `/`.
    public var path: String
    /// Header fields, names in lower case.
    public var headers: [(name: String, value: String)]
    /// The body's bytes.
    public var body: Data

    /// Creates a request.
    public init(tag: UInt64, path: String, headers: [(name: String, value: String)], body: Data) {
        self.tag = tag
        self.path = path
        self.headers = headers
        self.body = body
    }
}

/// The server's answer to one request.
public struct HTTP2Response: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// Header fields, names in lower case (the last one wins when a name repeats).
    public var headers: [String: String]
    /// The body's bytes.
    public var body: Data
}

/// How one request ended: answered, or lost with its connection.
public struct HTTP2Completion: Sendable {
    /// The request's ``HTTP2Request/tag``.
    public var tag: UInt64
    /// The answer, or why there is none.
    public var result: Result<HTTP2Response, CurlError>
    /// From ``HTTP2Client/submit(_:)`` to the end.
    public var latency: Duration
}
