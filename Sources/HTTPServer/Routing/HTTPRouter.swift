/// Collects routes, then freezes them into an immutable ``EndpointTable``.
///
/// ```swift
/// var router = HTTPRouter()
/// router.get("/v1/instances/{id}/entry") { request, parameters in
///     let id = try parameters.require("id")
///     return .json(try engine.entry(instance: id))
/// }
/// let server = try HTTPServer(configuration: .init(), routes: router.build())
/// ```
public struct HTTPRouter {
    private var routes: [Endpoint] = []

    /// Creates an empty router.
    public init() {}

    /// Registers `handler` for `method` on `template`.
    ///
    /// Registering the same method and template twice is a programming error and stops the process.
    /// - Parameters:
    ///   - method: The method; a `GET` route also answers `HEAD`.
    ///   - template: A path like `/v1/instances/{id}/entry`; see ``PathTemplate``.
    ///   - handler: The endpoint.
    public mutating func add(_ method: HTTPMethod, _ template: String, handler: @escaping HTTPHandler) {
        let parsed = checkedTemplate(method, template)
        routes.append(Endpoint(method: method, template: parsed, handler: handler))
    }

    /// Registers a `handler` that answers without suspending, for `method` on `template`.
    ///
    /// The server calls it on its worker thread as soon as the request is read: no task is created and the
    /// connection is never suspended, which is the cheapest way to answer. Use it for handlers that compute or
    /// read memory (or a quick SQLite read) and return; one that waits for anything belongs in ``add(_:_:handler:)``.
    /// - Parameters:
    ///   - method: The method; a `GET` route also answers `HEAD`.
    ///   - template: A path like `/v1/instances/{id}/entry`; see ``PathTemplate``.
    ///   - handler: The endpoint.
    public mutating func addSynchronous(_ method: HTTPMethod, _ template: String,
                                        handler: @escaping HTTPSynchronousHandler) {
        let parsed = checkedTemplate(method, template)
        routes.append(Endpoint(method: method, template: parsed, synchronousHandler: handler))
    }

    /// Registers a synchronous `handler` the server answers without checking its bearer token.
    ///
    /// Only for what holds no data and changes nothing: a web page's static files, whose scripts then call the
    /// token-protected endpoints with the token the user gives them. Everything else stays behind the token.
    /// - Parameters:
    ///   - method: The method; a `GET` route also answers `HEAD`.
    ///   - template: A path like `/ui/{file}`; see ``PathTemplate``.
    ///   - handler: The endpoint; it answers on the worker thread as in ``addSynchronous(_:_:handler:)``.
    public mutating func addWithoutToken(_ method: HTTPMethod, _ template: String,
                                         handler: @escaping HTTPSynchronousHandler) {
        let parsed = checkedTemplate(method, template)
        routes.append(Endpoint(method: method, template: parsed, requiresToken: false, synchronousHandler: handler))
    }

    private func checkedTemplate(_ method: HTTPMethod, _ template: String) -> PathTemplate {
        let parsed = PathTemplate(template)
        precondition(
            !routes.contains { $0.method == method && $0.template == parsed },
            "route \(method) \(parsed) is registered twice"
        )
        return parsed
    }

    /// Registers a `GET` (and `HEAD`) handler.
    public mutating func get(_ template: String, handler: @escaping HTTPHandler) {
        add(.get, template, handler: handler)
    }

    /// Registers a `POST` handler.
    public mutating func post(_ template: String, handler: @escaping HTTPHandler) {
        add(.post, template, handler: handler)
    }

    /// Registers a `PUT` handler.
    public mutating func put(_ template: String, handler: @escaping HTTPHandler) {
        add(.put, template, handler: handler)
    }

    /// Registers a `PATCH` handler.
    public mutating func patch(_ template: String, handler: @escaping HTTPHandler) {
        add(.patch, template, handler: handler)
    }

    /// Registers a `DELETE` handler.
    public mutating func delete(_ template: String, handler: @escaping HTTPHandler) {
        add(.delete, template, handler: handler)
    }

    /// Freezes the registered routes into a table.
    public func build() -> EndpointTable {
        EndpointTable(routes: routes)
    }
}
