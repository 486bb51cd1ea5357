import Foundation
import JSON
import Synchronization

/// The server's request logic, independent of libmicrohttpd: authorization, routing, running handlers,
/// turning errors into JSON, and recording metrics and logs. Passed to MHD's callbacks as their context.
final class RequestDispatcher: Sendable {
    let routes: EndpointTable
    let maximumBodySize: Int
    let bridging: HandlerBridging
    let log: ServerLog
    let metrics: HTTPMetrics
    private let token: BearerToken?
    /// The random hexadecimal start of every request id, as UTF-8.
    private let idPrefix: [UInt8]
    private let nextID = Atomic<UInt64>(0)
    private let stopping = Atomic<Bool>(false)
    private let inFlight = Atomic<Int>(0)
    /// The requests whose `async` handler was started: the only ones that can be suspended.
    private let awaitingHandlers = Mutex([ObjectIdentifier: RequestContext]())

    init(configuration: HTTPServer.Configuration, routes: EndpointTable) {
        self.routes = routes
        maximumBodySize = configuration.maximumBodySize
        bridging = configuration.bridging
        log = configuration.log
        metrics = HTTPMetrics(registry: configuration.metrics)
        token = configuration.bearerToken.map(BearerToken.init)
        idPrefix = Array(String(UInt32.random(in: 0...UInt32.max), radix: 16).utf8)
    }

    // MARK: Request lifecycle

    /// Starts tracking a request (first access-handler call).
    func begin(_ context: RequestContext, method: HTTPMethod, path: String) {
        inFlight.add(1, ordering: .relaxed)
        context.begin(id: makeID(), method: method, path: path)
    }

    /// `<prefix>-<number>`, formatted by hand: up to 15 bytes stay inline in the `String`, with no allocation.
    private func makeID() -> String {
        DecimalDigits.withASCII(of: nextID.add(1, ordering: .relaxed).newValue) { decimal in
            String(unsafeUninitializedCapacity: idPrefix.count + 1 + decimal.count) { text in
                var end = text.initialize(fromContentsOf: idPrefix)
                text[end] = UInt8(ascii: "-")
                end += 1
                end = text[end...].initialize(fromContentsOf: decimal)
                return end
            }
        }
    }

    /// Notes that the request's `async` handler is about to start, so a forced stop can answer it.
    func awaitHandler(of context: RequestContext) {
        context.awaitsHandler = true
        awaitingHandlers.withLock { $0[ObjectIdentifier(context)] = context }
    }

    /// Stops tracking a request (MHD's request-completed notification).
    func end(_ context: RequestContext) {
        guard context.isBegun else { return }
        if context.awaitsHandler {
            awaitingHandlers.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(context)) }
        }
        inFlight.subtract(1, ordering: .relaxed)
    }

    /// Requests begun and not yet completed, including ones whose response is being sent.
    var inFlightCount: Int { inFlight.load(ordering: .relaxed) }

    /// Whether ``beginStopping()`` was called.
    var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// From now on responses carry `Connection: close`, so keep-alive clients go away.
    func beginStopping() {
        stopping.store(true, ordering: .relaxed)
    }

    /// Answers every request still waiting for its handler with 503 `unavailable`, so no connection
    /// stays suspended when the daemon stops (MHD aborts the process if one does).
    func abandonSuspendedRequests() {
        let contexts = awaitingHandlers.withLock { Array($0.values) }
        for context in contexts {
            context.abandon(with: APIError.shuttingDown.response)
        }
    }

    // MARK: Deciding the response

    /// Resolves the route and checks what can be checked from the headers alone: the bearer token and a
    /// declared `Content-Length` above the cap. Returns the error response, or nil to go on.
    func preflight(_ context: RequestContext) -> HTTPResponse? {
        context.match = routes.resolve(context.method, path: context.path)
        if let token, Self.requiresToken(context.match), !token.accepts(authorization: context.headers["Authorization"]) {
            let reason = context.headers["Authorization"] == nil ? "missing bearer token" : "invalid bearer token"
            return APIError.unauthorized(reason).response
        }
        if let length = context.headers["Content-Length"].flatMap({ Int($0) }), length > maximumBodySize {
            return APIError.payloadTooLarge(limit: maximumBodySize).response
        }
        return nil
    }

    /// Whether the token is checked: for every request but those an endpoint registered without one answers.
    private static func requiresToken(_ match: EndpointTable.Match) -> Bool {
        guard case .found(let route, _) = match else { return true }
        return route.requiresToken
    }

    /// The response, when it can be decided on the worker thread without suspending: no route, a method not
    /// allowed, or a route with a synchronous handler (which runs here). Nil for an `async` handler.
    func respondWithoutSuspending(to request: @autoclosure () -> HTTPRequest, match: EndpointTable.Match) -> HTTPResponse? {
        switch match {
        case .notFound:
            let request = request()
            return APIError.noRoute(request.method, path: request.path).response
        case .methodNotAllowed(let allowed):
            let request = request()
            return APIError.methodNotAllowed(request.method, path: request.path, allowed: allowed).response
        case .found(let route, let parameters):
            guard let handler = route.synchronousHandler else { return nil }
            let request = request()
            do {
                return try handler(request, parameters)
            } catch {
                return response(for: error, from: route, answering: request)
            }
        }
    }

    /// Runs the matched handler; maps errors to JSON error responses.
    func respond(to request: HTTPRequest, match: EndpointTable.Match) async -> HTTPResponse {
        if let response = respondWithoutSuspending(to: request, match: match) { return response }
        guard case .found(let route, let parameters) = match else { preconditionFailure("answered above") }
        do {
            return try await route.handler(request, parameters)
        } catch {
            return response(for: error, from: route, answering: request)
        }
    }

    /// An error thrown by a handler as a response: an ``APIError`` as itself, anything else as a logged 500.
    private func response(for error: any Error, from route: Endpoint, answering request: HTTPRequest) -> HTTPResponse {
        if let error = error as? APIError { return error.response }
        log.log(.error, "handler failed", [
            "request_id": .string(request.id), "endpoint": .string(route.name),
            "error": .string(String(describing: error)),
        ])
        return APIError.internal(error).response
    }

    /// Adds the server's headers, records metrics and writes the request line.
    func finalize(_ response: HTTPResponse, for context: RequestContext) -> HTTPResponse {
        var response = response
        response.headers["X-Request-Id"] = context.id
        if isStopping { response.headers["Connection"] = "close" }
        let elapsed = (ContinuousClock.now - context.started).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        metrics.record(endpoint: context.endpoint, status: response.status, seconds: seconds)
        let level: LogLevel = response.status.rawValue >= 500 ? .error : .info
        if log.isEnabled(level) {
            log.log(level, "request", [
                "method": .string(context.method.rawValue), "path": .string(context.path),
                "endpoint": .string(context.endpoint), "status": .int(response.status.rawValue),
                "duration_ms": .double(seconds * 1000), "request_id": .string(context.id),
            ])
        }
        return response
    }
}
