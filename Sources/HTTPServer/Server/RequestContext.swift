import CMicroHTTPD
import Foundation
import Synchronization

/// The state of one request across libmicrohttpd's calls to the access handler.
///
/// Created by MHD's URI log callback once the request line is read, retained through MHD's per-request pointer
/// (`*req_cls`) until the request-completed notification.
final class RequestContext: @unchecked Sendable {
    // @unchecked Sendable: the plain stored properties are only touched from MHD's access-handler calls
    // for this request, which MHD makes one at a time (a connection is served by one thread at a time,
    // and a suspended one by none). `completion`, which the handler's task and `HTTPServer.stop` also
    // touch, is behind a lock.

    /// Where the asynchronous handler is.
    enum Completion {
        /// The handler has not started.
        case idle
        /// The handler's task runs; the connection is not (yet) suspended.
        case running
        /// The connection is suspended while the handler runs.
        case suspended(ConnectionHandle)
        /// The handler (or a forced stop) produced the response, not yet queued.
        case completed(HTTPResponse)
        /// The response was queued.
        case delivered
    }

    /// The request target as MHD's URI log callback scanned it, before MHD split it.
    let target: RequestHead.TargetScan
    /// Set by ``RequestDispatcher/begin(_:method:path:)`` on the first access-handler call; until then the request
    /// is not counted in flight.
    private(set) var isBegun = false
    private(set) var id = ""
    private(set) var method = HTTPMethod.get
    private(set) var path = ""
    private(set) var started = ContinuousClock.now
    var headers = HTTPHeaders()
    var match = EndpointTable.Match.notFound
    var body = Data()
    /// The answer decided before the body was read (401, 413); the body is then discarded, not kept.
    var earlyResponse: HTTPResponse?
    /// Whether the dispatcher tracks this request as one waiting for its `async` handler.
    var awaitsHandler = false
    private let completion = Mutex(Completion.idle)

    /// A request whose line MHD has just read (its URI log callback).
    init(target: RequestHead.TargetScan) {
        self.target = target
    }

    /// The first access-handler call: the request's id, method and path.
    func begin(id: String, method: HTTPMethod, path: String) {
        self.id = id
        self.method = method
        self.path = path
        started = .now
        isBegun = true
    }

    /// The metrics label: the route, or `unmatched`.
    var endpoint: String {
        if case .found(let endpoint, _) = match { endpoint.name } else { "unmatched" }
    }

    /// Called by the worker before it starts the handler's task.
    func markRunning() {
        completion.withLock { $0 = .running }
    }

    /// Called by the worker once the task is started: returns the response if the handler already
    /// finished, or else suspends the connection (under the lock, so that the task's
    /// `MHD_resume_connection` cannot come before `MHD_suspend_connection`) and returns nil.
    func suspendUnlessCompleted(_ connection: ConnectionHandle) -> HTTPResponse? {
        completion.withLock { state in
            if case .completed(let response) = state {
                state = .delivered
                return response
            }
            state = .suspended(connection)
            MHD_suspend_connection(connection.pointer)
            return nil
        }
    }

    /// Called by the handler's task with its response: stores it, and resumes the connection if the
    /// worker suspended it. Ignored once a response was delivered (a forced stop may come first).
    func finish(with response: HTTPResponse) {
        let connection: ConnectionHandle? = completion.withLock { state in
            switch state {
            case .idle, .running:
                state = .completed(response)
                return nil
            case .suspended(let connection):
                state = .completed(response)
                return connection
            case .completed, .delivered:
                return nil
            }
        }
        if let connection {
            MHD_resume_connection(connection.pointer)
        }
    }

    /// Answers with `response` if the connection is suspended waiting for its handler (a forced stop);
    /// does nothing otherwise. The handler's later result is dropped.
    func abandon(with response: HTTPResponse) {
        let connection: ConnectionHandle? = completion.withLock { state in
            guard case .suspended(let connection) = state else { return nil }
            state = .completed(response)
            return connection
        }
        if let connection {
            MHD_resume_connection(connection.pointer)
        }
    }

    /// The completed response to queue, once.
    func takeCompletedResponse() -> HTTPResponse? {
        completion.withLock { state in
            guard case .completed(let response) = state else { return nil }
            state = .delivered
            return response
        }
    }
}

/// An MHD connection pointer carried into the handler's task.
struct ConnectionHandle: @unchecked Sendable {
    // @unchecked Sendable: the task only passes the pointer to MHD_resume_connection, which
    // libmicrohttpd documents as callable from any thread; a suspended connection is not freed until
    // it has been resumed.
    let pointer: OpaquePointer
}
