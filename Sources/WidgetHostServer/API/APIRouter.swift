import HTTPServer
import PostgresStore

/// Registers API endpoints on a ``HTTPRouter``, adding what every API endpoint shares: after a mutating request
/// (`POST`, `PUT`, `PATCH`, `DELETE`) succeeds, the change hook runs, so the reload scheduler re-reads the schedule.
/// A `POST` that leaves the schedule alone (``postSynchronous(_:handler:)``) does not run it. On every endpoint, a
/// shared store (PostgreSQL) that cannot be reached is 503 `store_unavailable`, not 500.
struct APIRouter {
    /// The routes registered so far.
    private(set) var router = HTTPRouter()
    private let changed: @Sendable () -> Void

    /// Creates an empty API router.
    /// - Parameter changed: Called after each successful mutating request.
    init(notifyingChangesTo changed: @escaping @Sendable () -> Void) {
        self.changed = changed
    }

    /// Registers a `GET` (and `HEAD`) endpoint.
    mutating func get(_ template: String, handler: @escaping HTTPHandler) {
        router.get(template, handler: Self.mappingStoreLoss(handler))
    }

    /// Registers a `GET` (and `HEAD`) endpoint that answers without suspending (see
    /// ``HTTPRouter/addSynchronous(_:_:handler:)``).
    mutating func getSynchronous(_ template: String, handler: @escaping HTTPSynchronousHandler) {
        router.addSynchronous(.get, template, handler: Self.mappingStoreLoss(handler))
    }

    /// Registers a `GET` (and `HEAD`) endpoint answered without the bearer token: only for files that hold no data
    /// (see ``HTTPRouter/addWithoutToken(_:_:handler:)``).
    mutating func getWithoutToken(_ template: String, handler: @escaping HTTPSynchronousHandler) {
        router.addWithoutToken(.get, template, handler: handler)
    }

    /// Registers a `POST` endpoint that leaves the schedule alone: a question (route matching) or a change to
    /// something else (the route table). It answers on the worker thread without suspending, and the change hook
    /// does not run after it.
    mutating func postSynchronous(_ template: String, handler: @escaping HTTPSynchronousHandler) {
        router.addSynchronous(.post, template, handler: Self.mappingStoreLoss(handler))
    }

    /// Registers a `POST` endpoint.
    /// - Parameter notifiesChanges: False for an endpoint that runs the change hook itself, only when it changed
    ///   something (a perform does; its dry run and its replay do not).
    mutating func post(_ template: String, notifiesChanges: Bool = true, handler: @escaping HTTPHandler) {
        router.post(template, handler: Self.mappingStoreLoss(notifiesChanges ? notifying(handler) : handler))
    }

    /// Registers a `PUT` endpoint.
    mutating func put(_ template: String, handler: @escaping HTTPHandler) {
        router.put(template, handler: Self.mappingStoreLoss(notifying(handler)))
    }

    /// Registers a `PATCH` endpoint.
    mutating func patch(_ template: String, handler: @escaping HTTPHandler) {
        router.patch(template, handler: Self.mappingStoreLoss(notifying(handler)))
    }

    /// Registers a `DELETE` endpoint.
    mutating func delete(_ template: String, handler: @escaping HTTPHandler) {
        router.delete(template, handler: Self.mappingStoreLoss(notifying(handler)))
    }

    private func notifying(_ handler: @escaping HTTPHandler) -> HTTPHandler {
        let changed = changed
        return { request, parameters in
            let response = try await handler(request, parameters)
            if !response.status.isError { changed() }
            return response
        }
    }

    /// `handler`, with a lost shared store (``PostgresError`` `.unavailable` or `.commitOutcomeUnknown`), or one
    /// that kept aborting the transaction for conflicts with concurrent ones after every retry, answered 503
    /// `store_unavailable`.
    private static func mappingStoreLoss(_ handler: @escaping HTTPHandler) -> HTTPHandler {
        { request, parameters in
            do {
                return try await handler(request, parameters)
            } catch let error as PostgresError where error.isUnavailable || error.isTransient {
                throw APIError.storeUnavailable(error)
            }
        }
    }

    private static func mappingStoreLoss(_ handler: @escaping HTTPSynchronousHandler) -> HTTPSynchronousHandler {
        { request, parameters in
            do {
                return try handler(request, parameters)
            } catch let error as PostgresError where error.isUnavailable || error.isTransient {
                throw APIError.storeUnavailable(error)
            }
        }
    }
}
