import Foundation
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd serving a ``EndpointTable`` of async handlers, plus `/healthz` and
/// `/metrics`.
///
/// ```swift
/// var router = HTTPRouter()
/// router.get("/v1/kinds") { _, _ in .json(kinds) }
/// let server = try HTTPServer(configuration: .init(address: .loopback(port: 8080)), router: router)
/// print("listening on \(server.address)")
/// ...
/// await server.stop()
/// ```
///
/// - Threads: libmicrohttpd's epoll event loop runs in `threadPoolSize` threads; synchronous handlers
///   (``HTTPRouter/addSynchronous(_:_:handler:)``) run on them, `async` ones as Swift tasks (see ``HandlerBridging``).
///   Keep-alive is supported.
/// - Security: refuses addresses other than loopback and Unix sockets unless a bearer token is set; with
///   a token, every request (including `/healthz` and `/metrics`) must carry it, but for the routes registered
///   with ``HTTPRouter/addWithoutToken(_:_:handler:)`` (files that hold no data, such as a page's scripts).
/// - Bodies: read across MHD's calls, capped by ``Configuration/maximumBodySize`` (413 beyond; a declared
///   `Content-Length` over the cap is refused before the body is read).
/// - Responses always carry `X-Request-Id`. Errors are JSON `{code, message, detail}` (see ``APIError``).
public final class HTTPServer: Sendable {
    /// The address actually listened on (with the real port when port 0 was asked for).
    public let address: ListenAddress
    /// The metrics registry served at `/metrics`.
    public let metrics: MetricsRegistry
    /// The routes served, built-in ones included.
    public let routes: EndpointTable

    private let daemon: MHDDaemon
    private let dispatcher: RequestDispatcher
    private let onStop: (@Sendable () async -> Void)?
    private let state = Mutex(State.running)

    private enum State {
        case running, stopping, stopped
    }

    /// Binds the address and starts serving at once.
    ///
    /// - Parameters:
    ///   - configuration: Address, token, limits, log and metrics.
    ///   - router: The endpoints; the server adds `GET /healthz` and `GET /metrics` (do not register those).
    /// - Throws: ``ServerError``, e.g. ``ServerError/nonLoopbackWithoutToken(_:)`` or a bind failure.
    public init(configuration: Configuration = Configuration(), router: HTTPRouter = HTTPRouter()) throws {
        try configuration.validate()
        var router = router
        BuiltinRoutes.register(in: &router, metrics: configuration.metrics)
        routes = router.build()
        metrics = configuration.metrics
        onStop = configuration.onStop
        dispatcher = RequestDispatcher(configuration: configuration, routes: routes)
        let socket = try ListenSocket(binding: configuration.address)
        address = socket.address
        daemon = try MHDDaemon(socket: socket, configuration: configuration, dispatcher: dispatcher)
        configuration.log.log(.info, "listening", [
            "address": .string(address.description), "threads": .int(configuration.threadPoolSize),
            "auth": .string(configuration.bearerToken == nil ? "none" : "bearer"),
        ])
    }

    /// The TCP port listened on, or nil for a Unix socket.
    public var port: UInt16? { address.port }

    /// Whether ``stop(gracePeriod:)`` has not been called.
    public var isRunning: Bool { state.withLock { $0 == .running } }

    /// Stops gracefully, then calls the configured `onStop` hook.
    ///
    /// 1. Stops accepting: the listen socket is closed (see ``MHDDaemon/quiesce()``), so new connections are
    ///    refused; responses from now on carry `Connection: close`.
    /// 2. Waits up to `gracePeriod` for requests in progress to finish and be sent.
    /// 3. Requests still running get 503 `unavailable` (their handlers' results are dropped).
    /// 4. Closes every connection and joins MHD's threads (`MHD_stop_daemon`), then runs `onStop`.
    ///
    /// Calling it again, or concurrently, waits for nothing and returns.
    public func stop(gracePeriod: Duration = .seconds(10)) async {
        let first = state.withLock { state in
            guard state == .running else { return false }
            state = .stopping
            return true
        }
        guard first else { return }
        dispatcher.beginStopping()
        daemon.quiesce()
        let clock = ContinuousClock()
        let deadline = clock.now + gracePeriod
        while dispatcher.inFlightCount > 0, clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let abandoned = dispatcher.inFlightCount
        if abandoned > 0 {
            dispatcher.abandonSuspendedRequests()
            let flushDeadline = clock.now + .milliseconds(200)
            while dispatcher.inFlightCount > 0, clock.now < flushDeadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        daemon.stop()
        dispatcher.log.log(.info, "stopped", ["address": .string(address.description), "abandoned": .int(abandoned)])
        state.withLock { $0 = .stopped }
        await onStop?()
    }
}
