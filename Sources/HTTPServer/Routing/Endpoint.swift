/// An asynchronous endpoint handler.
///
/// Throw ``APIError`` for a 4xx/5xx JSON answer; any other error becomes a 500 `internal` error.
public typealias HTTPHandler = @Sendable (HTTPRequest, PathParameters) async throws -> HTTPResponse

/// An endpoint handler that answers without suspending: it runs on the server's worker thread, with no task
/// created for it (see ``HTTPRouter/addSynchronous(_:_:handler:)``). Errors as for ``HTTPHandler``.
public typealias HTTPSynchronousHandler = @Sendable (HTTPRequest, PathParameters) throws -> HTTPResponse

/// One registered endpoint: a method, a path template and its handler.
public struct Endpoint: Sendable {
    /// The method it answers (`GET` routes also answer `HEAD`).
    public let method: HTTPMethod
    /// The path template.
    public let template: PathTemplate
    /// The handler. For a route registered with a synchronous handler, an `async` wrapper around it.
    public let handler: HTTPHandler
    /// The handler of a route registered with ``HTTPRouter/addSynchronous(_:_:handler:)``, which the server calls
    /// directly on its worker thread; nil for `async` handlers.
    public let synchronousHandler: HTTPSynchronousHandler?
    /// `METHOD /template`, e.g. `GET /v1/instances/{id}/entry`: the metrics `endpoint` label and log name.
    public let name: String
    /// Whether the server's bearer token (when it has one) is checked for this endpoint. False only for endpoints
    /// registered with ``HTTPRouter/addWithoutToken(_:_:handler:)``, which serve content that holds no data.
    public let requiresToken: Bool
    /// The names of the template's `{name}` segments, in order.
    let parameterNames: [String]

    init(method: HTTPMethod, template: PathTemplate, handler: @escaping HTTPHandler) {
        self.method = method
        self.template = template
        self.handler = handler
        synchronousHandler = nil
        requiresToken = true
        name = "\(method) \(template)"
        parameterNames = Self.parameterNames(of: template)
    }

    init(method: HTTPMethod, template: PathTemplate, requiresToken: Bool = true,
         synchronousHandler: @escaping HTTPSynchronousHandler) {
        self.method = method
        self.template = template
        handler = { request, parameters in try synchronousHandler(request, parameters) }
        self.synchronousHandler = synchronousHandler
        self.requiresToken = requiresToken
        name = "\(method) \(template)"
        parameterNames = Self.parameterNames(of: template)
    }

    private static func parameterNames(of template: PathTemplate) -> [String] {
        template.segments.compactMap { segment in
            if case .parameter(let name) = segment { name } else { nil }
        }
    }
}
