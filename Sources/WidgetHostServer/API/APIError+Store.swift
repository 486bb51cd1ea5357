import HTTPServer
import JSON
import PostgresStore

extension APIError.Code {
    /// 503: the shared store (PostgreSQL: `--analytics`, `--push-store`) cannot be reached; nothing was stored, retry
    /// (`detail.store`, `detail.reason`). The daemon reconnects by itself once the store is back.
    public static let storeUnavailable: Self = "store_unavailable"
}

extension APIError {
    /// 503 `store_unavailable` for a shared store that is down or was lost mid-request.
    ///
    /// A transaction whose connection broke before its `COMMIT` was rolled back by the server; one whose
    /// connection broke during `COMMIT` may have been stored (`detail.outcome` is `unknown`), which the message
    /// says so a client retrying it knows. The server's message is passed on; the connection string (which may
    /// hold a password) never is.
    ///
    /// A transaction the server kept aborting for serialization conflicts or deadlocks (after
    /// ``PostgresPool/maximumAttempts`` runs) was rolled back each time: nothing was stored, and a retry later is
    /// likely to pass.
    static func storeUnavailable(_ error: PostgresError) -> APIError {
        let unknown = error.kind == .commitOutcomeUnknown
        let message = unknown ? "the shared store was lost while committing: the request may have been stored"
            : error.isTransient && !error.isUnavailable
            ? "the shared store kept aborting the request for conflicts with concurrent ones: nothing was stored; retry"
            : "the shared store is unavailable: nothing was stored; retry"
        return APIError(.storeUnavailable, status: .serviceUnavailable, message: message,
                        detail: ["store": "postgresql", "reason": .string(error.message),
                                 "outcome": .string(unknown ? "unknown" : "not-stored")])
    }
}
