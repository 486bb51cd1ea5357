import CSQLite
import Foundation

extension DatabaseStore {
    /// Runs `body` in one write transaction that may suspend: `BEGIN IMMEDIATE`, then `COMMIT`
    /// once `body` returns, or `ROLLBACK` if it throws.
    ///
    /// ``write(_:)`` takes a synchronous closure, so it cannot wrap async work. A write session
    /// holds the writer connection across suspension points instead: the session waits for the
    /// writer without blocking a thread, and while it is open, ``write(_:)`` from other tasks waits
    /// until it ends. Inside, work reaches the connection through ``WriteSession/withDatabase(_:)``
    /// and nests in ``WriteSession/savepoint(rollingBack:isolation:_:)``, which reports what each
    /// savepoint changed (change capture is on for the whole session).
    ///
    /// Like ``write(_:)``, the method returns only after `COMMIT` returned, so with
    /// `synchronous = FULL` everything `body` did is on disk when it returns: callers acknowledge
    /// work done in a session only afterwards. Several units of work sharing one session share one
    /// commit (group commit); each in its own savepoint, one that fails undoes only itself.
    ///
    /// Calling ``write(_:)`` or ``writeCapturingChanges(_:)`` (and, in memory, ``read(_:)``) on this
    /// store from inside `body`'s task throws `SQLITE_MISUSE` instead of deadlocking: use the
    /// session's connection. On disk, ``read(_:)`` from inside works but sees only committed data,
    /// not the session's own writes.
    ///
    /// - Parameters:
    ///   - isolation: The caller's isolation, in which `body` runs.
    ///   - body: The transaction's work; it receives the session, valid until `body` returns.
    /// - Returns: What `body` returned, after `COMMIT`.
    /// - Throws: What `body` threw (after rolling back), or ``SQLiteError`` from `BEGIN` or
    ///   `COMMIT` (nothing is committed then).
    ///
    /// See [BEGIN TRANSACTION](https://www.sqlite.org/lang_transaction.html).
    public func withWriteSession<T>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (WriteSession) async throws -> T
    ) async throws -> T {
        try checkNotInOwnSession(#function)
        await writer.acquireAsync()
        defer { writeEnded() }
        let database = writer.heldDatabase
        let session = WriteSession(database: database, path: path)
        do {
            try session.begin()
        } catch {
            writer.release()
            throw error
        }
        let value: T
        do {
            value = try await WriteSession.$activeStores.withValue(
                WriteSession.activeStores + [ObjectIdentifier(self)]) {
                try await body(session)
            }
            try session.commit()
        } catch {
            session.rollBack()
            writer.release()
            throw error
        }
        writer.release()
        return value
    }

    /// Throws `SQLITE_MISUSE` when the current task holds a write session of this store, where
    /// taking the writer again would wait for itself forever.
    func checkNotInOwnSession(_ function: String) throws {
        guard WriteSession.activeStores.contains(ObjectIdentifier(self)) else { return }
        throw SQLiteError(extendedCode: SQLITE_MISUSE,
                          message: "\(function) called inside a write session of the same store; "
                              + "use the session's database (WriteSession.withDatabase)",
                          path: path, function: function)
    }
}
