import Foundation

/// The server's request logic, independent of libmicrohttpd: authorization, routing, running handlers,
/// turning errors into JSON, and recording metrics and logs. Passed to MHD's callbacks as their context.
final class RequestDispatcher: Sendable {
    let routes: RouteTable
    let maximumBodySize: Int
    let bridging: HandlerBridging
    let log: ServerLog
    let metrics: HTTPMetrics
    private let token: BearerToken?
    private let idPrefix: String
    private let nextID = Locked<UInt64>(0)
    private let stopping = Locked(false)
    private let inFlight = Locked([ObjectIdentifier: RequestContext]())

    init(configuration: HTTPServer.Configuration, routes: RouteTable) {
        self.routes = routes
        maximumBodySize = configuration.maximumBodySize
        bridging = configuration.bridging
        log = configuration.log
        metrics = HTTPMetrics(registry: configuration.metrics)
        token = configuration.bearerToken.map(BearerToken.init)
        idPrefix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    }

    // MARK: Request lifecycle

    /// Starts tracking a request (first access-handler call).
    func begin(method: HTTPMethod, path: String) -> RequestContext {
        let number = nextID.withLock { id in
            id += 1
            return id
        }
        let context = RequestContext(id: "\(idPrefix)-\(number)", method: method, path: path)
        inFlight.withLock { $0[ObjectIdentifier(context)] = context }
        return context
    }

    /// Stops tracking a request (MHD's request-completed notification).
    func end(_ context: RequestContext) {
        inFlight.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(context)) }
    }

    /// Requests begun and not yet completed, including ones whose response is being sent.
    var inFlightCount: Int { inFlight.withLock { $0.count } }

    /// Whether ``beginStopping()`` was called.
    var isStopping: Bool { stopping.withLock { $0 } }

    /// From now on responses carry `Connection: close`, so keep-alive clients go away.
    func beginStopping() {
        stopping.withLock { $0 = true }
    }

    /// Answers every request still waiting for its handler with 503 `unavailable`, so no connection
    /// stays suspended when the daemon stops (MHD aborts the process if one does).
    func abandonSuspendedRequests() {
        let contexts = inFlight.withLock { Array($0.values) }
        for context in contexts {
            context.abandon(with: APIError.shuttingDown.response)
        }
    }

    // MARK: Deciding the response

    /// Resolves the route and checks what can be checked from the headers alone: the bearer token and a
    /// declared `Content-Length` above the cap. Returns the error response, or nil to go on.
    func preflight(_ context: RequestContext) -> HTTPResponse? {
        context.match = routes.resolve(context.method, path: context.path)
        if let token, !token.accepts(authorization: context.headers["Authorization"]) {
            let reason = context.headers["Authorization"] == nil ? "missing bearer token" : "invalid bearer token"
            return APIError.unauthorized(reason).response
        }
        if let length = context.headers["Content-Length"].flatMap({ Int($0) }), length > maximumBodySize {
            return APIError.payloadTooLarge(limit: maximumBodySize).response
        }
        return nil
    }

    /// Runs the matched handler; maps errors to JSON error responses.
    func respond(to request: HTTPRequest, match: RouteTable.Match) async -> HTTPResponse {
        switch match {
        case .notFound:
            return APIError.noRoute(request.method, path: request.path).response
        case .methodNotAllowed(let allowed):
            return APIError.methodNotAllowed(request.method, path: request.path, allowed: allowed).response
        case .found(let route, let parameters):
            do {
                return try await route.handler(request, parameters)
            } catch let error as APIError {
                return error.response
            } catch {
                log.log(.error, "handler failed", [
                    "request_id": .string(request.id), "endpoint": .string(route.endpoint),
                    "error": .string(String(describing: error)),
                ])
                return APIError.internal(error).response
            }
        }
    }

    /// Adds the server's headers, records metrics and writes the request line.
    func finalize(_ response: HTTPResponse, for context: RequestContext) -> HTTPResponse {
        var response = response
        response.headers["X-Request-Id"] = context.id
        if isStopping { response.headers["Connection"] = "close" }
        let elapsed = ContinuousClock.now - context.started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let endpoint = context.endpoint
        metrics.record(endpoint: endpoint, status: response.status, seconds: seconds)
        let level: LogLevel = response.status.rawValue >= 500 ? .error : .info
        if log.isEnabled(level) {
            log.log(level, "request", [
                "method": .string(context.method.rawValue), "path": .string(context.path),
                "endpoint": .string(endpoint), "status": .int(response.status.rawValue),
                "duration_ms": .double(seconds * 1000), "request_id": .string(context.id),
            ])
        }
        return response
    }
}
