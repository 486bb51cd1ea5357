import CCurl
import Foundation
import Synchronization

/// An HTTP/2 client for one endpoint: many concurrent streams over a few long-lived connections, on libcurl's multi
/// interface (with nghttp2), driven by a thread of its own.
///
/// ``submit(_:)`` may be called from any thread; the request joins the client's thread, which adds it to the multi
/// handle and wakes `curl_multi_poll`. Each request ends exactly once in the completion handler (on the client's
/// thread): answered with a status, or with a ``CurlError`` when its connection was dropped, refused, timed out or
/// failed TLS. Nothing is retried here; whoever submitted decides. Connections are opened as needed up to
/// ``Configuration/connections`` (`CURLMOPT_MAX_HOST_CONNECTIONS`), each carrying up to
/// ``Configuration/streamsPerConnection`` streams (`CURLMOPT_MAX_CONCURRENT_STREAMS`, further bounded by the server's
/// `SETTINGS_MAX_CONCURRENT_STREAMS`); new requests wait for a stream on an open connection (`CURLOPT_PIPEWAIT`)
/// rather than open one more. A dropped connection is replaced by the next request.
///
/// See [libcurl multi interface](https://curl.se/libcurl/c/libcurl-multi.html).
public final class HTTP2Client: Sendable {
    /// Where and how to connect.
    public struct Configuration: Sendable {
        /// The endpoint's origin: `https://api.push.apple.com`, or `http://…` for cleartext h2c (prior knowledge).
        public var endpoint: URL
        /// A PEM file of the certificate authorities to trust instead of the system's (a local server's `ca.pem`).
        public var caFile: String?
        /// 1–16 connections.
        public var connections: Int
        /// Streams each connection carries at most.
        public var streamsPerConnection: Int
        /// How long one request may take, connecting included.
        public var requestTimeout: Duration

        /// Creates a configuration.
        public init(endpoint: URL, caFile: String? = nil, connections: Int = 1, streamsPerConnection: Int = 500,
                    requestTimeout: Duration = .seconds(30)) {
            self.endpoint = endpoint
            self.caFile = caFile
            self.connections = connections
            self.streamsPerConnection = streamsPerConnection
            self.requestTimeout = requestTimeout
        }

        var usesTLS: Bool { endpoint.scheme?.lowercased() == "https" }

        /// The origin without a trailing slash.
        var origin: String {
            var text = endpoint.absoluteString
            while text.hasSuffix("/") { text.removeLast() }
            return text
        }

        /// Checks the configuration.
        /// - Throws: ``HTTP2ClientError``.
        func validate() throws(HTTP2ClientError) {
            guard let scheme = endpoint.scheme?.lowercased(), scheme == "https" || scheme == "http",
                  let host = endpoint.host, !host.isEmpty, endpoint.path.isEmpty || endpoint.path == "/",
                  endpoint.query == nil else {
                throw .badEndpoint(endpoint.absoluteString)
            }
            guard (1...16).contains(connections) else { throw .connectionsOutOfRange(connections) }
            guard (1...10_000).contains(streamsPerConnection) else { throw .streamsOutOfRange(streamsPerConnection) }
            if let caFile, !FileManager.default.isReadableFile(atPath: caFile) { throw .unreadableCAFile(caFile) }
        }
    }

    /// The configuration.
    public let configuration: Configuration
    private let mailbox = Mailbox()
    // Only `curl_multi_wakeup` is called on it from other threads, which libcurl allows; everything else runs on the
    // client's thread. Freed there, when the thread ends.
    private nonisolated(unsafe) let multi: UnsafeMutableRawPointer
    private let finished = DispatchSemaphore(value: 0)

    /// What the caller's threads and the client's thread share.
    private final class Mailbox: Sendable {
        struct State {
            var submitted: [HTTP2Request] = []
            var stopping = false
            var inFlight = 0
        }

        let state = Mutex(State())
    }

    /// Starts the client's thread; no connection is opened before the first request.
    /// - Parameter completion: Called on the client's thread once per request, in the order requests end.
    /// - Throws: ``HTTP2ClientError`` for a bad configuration, or when libcurl cannot be loaded.
    public init(_ configuration: Configuration, completion: @escaping @Sendable (HTTP2Completion) -> Void) throws {
        try configuration.validate()
        try Self.loadLibcurl()
        _ = Self.globalInitialization
        guard let multi = curl_multi_init() else { throw HTTP2ClientError.outOfMemory }
        CurlError.precondition(ccurl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX)),
                               "CURLMOPT_PIPELINING")
        CurlError.precondition(ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.connections),
                               "CURLMOPT_MAX_HOST_CONNECTIONS")
        CurlError.precondition(ccurl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, configuration.connections),
                               "CURLMOPT_MAX_TOTAL_CONNECTIONS")
        CurlError.precondition(ccurl_multi_setopt_long(multi, CURLMOPT_MAX_CONCURRENT_STREAMS,
                                                       configuration.streamsPerConnection),
                               "CURLMOPT_MAX_CONCURRENT_STREAMS")
        self.configuration = configuration
        self.multi = multi
        let loop = HTTP2Loop(multi: multi, configuration: configuration, completion: completion)
        let thread = Thread { [mailbox, finished] in
            loop.run(take: {
                mailbox.state.withLock { state in
                    let taken = state.submitted
                    state.submitted.removeAll(keepingCapacity: true)
                    return (taken, state.stopping)
                }
            }, ended: { count in mailbox.state.withLock { $0.inFlight -= count } })
            finished.signal()
        }
        thread.name = "widgethost-http2"
        thread.start()
    }

    /// Opens libcurl unless it is open: it is loaded on first use, not linked, so a daemon that sends no pushes never
    /// maps it (nor the libraries it pulls in).
    static func loadLibcurl() throws {
        var error = [CChar](repeating: 0, count: 512)
        guard ccurl_load(&error, error.count) != 0 else { return }
        let message = error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        throw HTTP2ClientError.clientLibraryMissing(String(decoding: message, as: UTF8.self))
    }

    /// `curl_global_init`, once per process, before any other libcurl call (and after ``loadLibcurl()``).
    private static let globalInitialization: Void = {
        let code = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        precondition(code == CURLE_OK, "curl_global_init failed: \(CurlError(code))")
    }()

    /// Hands `request` to the client's thread.
    /// - Returns: `false` when the client is stopping (the request was not taken).
    @discardableResult
    public func submit(_ request: HTTP2Request) -> Bool {
        let taken = mailbox.state.withLock { state in
            guard !state.stopping else { return false }
            state.submitted.append(request)
            state.inFlight += 1
            return true
        }
        if taken { curl_multi_wakeup(multi) }
        return taken
    }

    /// Requests submitted and not yet completed.
    public var inFlight: Int { mailbox.state.withLock { $0.inFlight } }

    /// Stops the thread: requests not yet completed end with `CURLE_ABORTED_BY_CALLBACK`, connections close.
    /// Returns once the thread has ended.
    public func shutdown() {
        let first = mailbox.state.withLock { state in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else { return }
        curl_multi_wakeup(multi)
        finished.wait()
    }

    deinit { shutdown() }
}

/// Why an ``HTTP2Client`` could not be created.
public enum HTTP2ClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not an `https://host[:port]` or `http://host[:port]` origin.
    case badEndpoint(String)
    /// Connections outside 1...16.
    case connectionsOutOfRange(Int)
    /// Streams per connection outside 1...10000.
    case streamsOutOfRange(Int)
    /// The CA file cannot be read.
    case unreadableCAFile(String)
    /// libcurl could not allocate a handle.
    case outOfMemory
    /// libcurl (`libcurl.so.4`, Debian's `libcurl4`) is not installed, or lacks a function the client calls.
    case clientLibraryMissing(String)

    public var description: String {
        switch self {
        case .badEndpoint(let url): "the endpoint '\(url)' is not an https:// or http:// origin (scheme, host, port only)"
        case .connectionsOutOfRange(let count): "connections must be in 1...16, not \(count)"
        case .streamsOutOfRange(let count): "streams per connection must be in 1...10000, not \(count)"
        case .unreadableCAFile(let path): "the CA file '\(path)' cannot be read"
        case .outOfMemory: "libcurl could not allocate a multi handle"
        case .clientLibraryMissing(let reason): reason
        }
    }
}
