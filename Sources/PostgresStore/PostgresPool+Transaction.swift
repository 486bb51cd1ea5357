import Foundation

/// How strongly a transaction is isolated from concurrent ones.
///
/// See [Transaction Isolation](https://www.postgresql.org/docs/15/transaction-iso.html).
public enum PostgresIsolation: String, Sendable {
    case readCommitted = "READ COMMITTED"
    case repeatableRead = "REPEATABLE READ"
    case serializable = "SERIALIZABLE"
}

extension PostgresPool {
    /// How many times a transaction runs at most when the server makes it lose a serialization conflict.
    ///
    /// Under `SERIALIZABLE`, PostgreSQL's predicate locks are taken on index pages, so transactions on different rows
    /// of one page can conflict too: two daemons submitting to 48 activities at once lost 5 runs in a row now and
    /// then. Twelve runs, with pauses growing to 100 ms, wait out such a burst (at most about 0.6 s in all).
    public static let maximumAttempts = 12

    /// Runs `body` in a transaction that commits when it returns and rolls back when it throws.
    ///
    /// `body` may run more than once, so it must do nothing but database work (compute outside, or make the
    /// work idempotent): it is run again, on a fresh transaction, when
    /// - the server aborts it with a serialization failure (`40001`) or a deadlock (`40P01`), up to
    ///   ``maximumAttempts`` runs, after a random pause that grows with each attempt (up to 100 ms);
    /// - the connection turns out to be gone before `COMMIT` was sent (a pooled connection the server closed
    ///   while it restarted): once, on a new connection.
    ///
    /// Never retried: a connection lost while `COMMIT` was in flight (``PostgresError/Kind/commitOutcomeUnknown``:
    /// the commit may have happened), and a server that cannot be reached (``PostgresError/Kind/unavailable``).
    /// - Returns: What `body` returned from the run that committed.
    /// - Throws: What `body` threw, or ``PostgresError``.
    @discardableResult
    public func transaction<T>(isolation: PostgresIsolation = .readCommitted,
                               _ body: (PostgresConnection) throws -> T) throws -> T {
        var attempt = 1
        var reconnected = false
        while true {
            let connection = try checkOut()
            do {
                let result = try run(body, isolation: isolation, on: connection)
                checkIn(connection)
                return result
            } catch let error as PostgresError {
                if connection.isBroken { discard(connection) } else { checkIn(connection) }
                if error.isTransient && attempt < Self.maximumAttempts {
                    attempt += 1
                    usleep(UInt32.random(in: 1_000...min(10_000 * UInt32(attempt), 100_000)))
                    continue
                }
                if error.kind == .unavailable && !reconnected {
                    reconnected = true
                    closeIdleConnections()  // They were all made before the loss; none is likely alive.
                    continue
                }
                throw error
            } catch {
                if connection.isBroken { discard(connection) } else { checkIn(connection) }
                throw error
            }
        }
    }

    /// One run: `BEGIN`, the body, `COMMIT`; a rollback when the body throws.
    private func run<T>(_ body: (PostgresConnection) throws -> T, isolation: PostgresIsolation,
                        on connection: PostgresConnection) throws -> T {
        try connection.execute("BEGIN ISOLATION LEVEL \(isolation.rawValue)")
        let result: T
        do {
            result = try body(connection)
        } catch {
            if !connection.isBroken { _ = try? connection.execute("ROLLBACK") }
            throw error
        }
        do {
            try connection.execute("COMMIT")
        } catch let error as PostgresError where error.kind == .unavailable {
            throw PostgresError(kind: .commitOutcomeUnknown, sqlState: error.sqlState,
                                message: "the connection was lost during COMMIT: " + error.message, sql: "COMMIT")
        }
        return result
    }
}
