import CSQLite
import Foundation
import Synchronization

/// The writer connection of a ``DatabaseStore`` held across async work, inside one transaction.
///
/// Get one from ``DatabaseStore/withWriteSession(isolation:_:)``; it is valid until that call's
/// closure returns. A session may be used from any task, one use at a time: a second
/// ``withDatabase(_:)`` while one is running (from another task, or nested inside the first)
/// throws `SQLITE_MISUSE` instead of touching the connection concurrently.
///
/// `@unchecked Sendable` is safe here because the non-thread-safe ``Database`` is only touched
/// inside ``withDatabase(_:)`` (and by the store while opening and closing the session, when no
/// one else has the session yet or any more), and ``withDatabase(_:)`` first takes the `state`
/// mutex's `inUse` flag, so no two threads use the connection at once; the mutex also orders
/// memory between the threads that use it one after the other.
public final class WriteSession: @unchecked Sendable {
    private struct State {
        var isOpen = true
        var inUse = false
    }

    /// The stores whose write session the current task is inside.
    @TaskLocal static var activeStores: [ObjectIdentifier] = []

    private let database: Database
    private let path: String
    private let state = Mutex(State())

    init(database: Database, path: String) {
        self.database = database
        self.path = path
    }

    /// Runs synchronous work on the session's connection, inside its transaction.
    ///
    /// - Parameter body: The work; it receives the writer connection, which must not escape.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw (nothing is rolled back: nest in a savepoint for that), or
    ///   ``SQLiteError`` `SQLITE_MISUSE` when the session is closed or already in use, or when
    ///   SQLite rolled the whole transaction back after an error (e.g. `SQLITE_FULL`): nothing
    ///   may then run outside the transaction.
    public func withDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        try take()
        defer { state.withLock { $0.inUse = false } }
        guard database.isInTransaction else {
            throw misuse("the session's transaction was rolled back by SQLite after an earlier error")
        }
        return try body(database)
    }

    /// Runs async work inside a savepoint and reports what it changed.
    ///
    /// When `body` throws, everything it did is rolled back and the error rethrown; the
    /// session's transaction goes on. When it returns, the savepoint is released, or rolled back
    /// when `rollingBack` is true (a dry run: the changes are reported, then undone).
    ///
    /// - Parameters:
    ///   - rollingBack: Undo the work even when it succeeds.
    ///   - reportingChanges: Name and return what the savepoint changed; pass `false` when the
    ///     caller does not look at it (the changes are still captured for enclosing savepoints that
    ///     report theirs; outside any such savepoint nothing is captured).
    ///   - isolation: The caller's isolation, in which `body` runs.
    ///   - body: The work; it reaches the connection through ``withDatabase(_:)``.
    /// - Returns: What `body` returned, and the rows and defaults keys it changed (changes of
    ///   savepoints rolled back inside it excluded; empty when `reportingChanges` is false).
    /// - Throws: What `body` threw, or ``SQLiteError``.
    ///
    /// See [SAVEPOINT](https://www.sqlite.org/lang_savepoint.html).
    public func savepoint<T>(
        rollingBack: Bool = false,
        reportingChanges: Bool = true,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async throws -> (value: T, changes: ChangeSet) {
        let savepoint = try withDatabase { db in try db.openSavepoint(reportingChanges: reportingChanges) }
        let value: T
        do {
            value = try await body()
        } catch {
            try? withDatabase { db in db.rollBack(savepoint) }
            throw error
        }
        return try withDatabase { db in
            var changes = ChangeSet()
            do {
                if reportingChanges, let recorder = db.changeRecorder {
                    changes = try recorder.changeSet(since: savepoint.changeMark, on: db)
                }
            } catch {
                db.rollBack(savepoint)
                throw error
            }
            if rollingBack {
                db.rollBack(savepoint)
            } else {
                try db.release(savepoint)
            }
            return (value, changes)
        }
    }

    /// Runs async work in one savepoint, in two steps: `body`, whose changes are reported, then `finish`, which
    /// receives them and whose own changes are not recorded (bookkeeping that must commit or roll back with the
    /// work, such as a record of its outcome).
    ///
    /// It does what a reporting ``savepoint(rollingBack:reportingChanges:isolation:_:)`` nested in a non-reporting
    /// one does, with one savepoint instead of two. When either step throws, everything both did is rolled back
    /// and the error rethrown; the session's transaction goes on.
    ///
    /// - Parameters:
    ///   - isolation: The caller's isolation, in which both steps run.
    ///   - body: The work whose changes are reported.
    ///   - finish: The rest of the savepoint's work, given what `body` returned and the rows and defaults keys it
    ///     changed (changes of savepoints rolled back inside it excluded).
    /// - Returns: What `finish` returned, once the savepoint is released.
    /// - Throws: What `body` or `finish` threw, or ``SQLiteError``.
    public func savepoint<T, U>(
        isolation: isolated (any Actor)? = #isolation,
        reportingChangesOf body: () async throws -> T,
        then finish: (T, ChangeSet) async throws -> U
    ) async throws -> U {
        let savepoint = try withDatabase { db in try db.openSavepoint(reportingChanges: true) }
        let result: U
        do {
            let value = try await body()
            let changes = try withDatabase { db -> ChangeSet in
                guard let recorder = db.changeRecorder else { return ChangeSet() }
                defer { recorder.stopReportingInnermostSavepoint() }
                return try recorder.changeSet(since: savepoint.changeMark, on: db)
            }
            result = try await finish(value, changes)
        } catch {
            try? withDatabase { db in db.rollBack(savepoint) }
            throw error
        }
        try withDatabase { db in try db.release(savepoint) }
        return result
    }

    // MARK: Opening and closing (by the store)

    func begin() throws {
        try database.execute("BEGIN IMMEDIATE")
        database.changeRecorder?.begin(wholeTransaction: false)
    }

    func commit() throws {
        try close()
        database.changeRecorder?.discard()
        guard database.isInTransaction else {
            throw misuse("the session's transaction was rolled back by SQLite after an earlier error")
        }
        try database.execute("COMMIT")
    }

    func rollBack() {
        try? close()
        database.changeRecorder?.discard()
        if database.isInTransaction { try? database.execute("ROLLBACK") }
    }

    /// Marks the session closed, waiting out nothing: a use still running is a misuse reported here.
    private func close() throws {
        let wasInUse = state.withLock { state in
            state.isOpen = false
            return state.inUse
        }
        if wasInUse { throw misuse("the write session ended while a withDatabase call was still running") }
    }

    private func take() throws {
        let problem: String? = state.withLock { state in
            if !state.isOpen { return "the write session has ended" }
            if state.inUse { return "the write session's connection is already in use (nested or concurrent use)" }
            state.inUse = true
            return nil
        }
        if let problem { throw misuse(problem) }
    }

    private func misuse(_ message: String) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_MISUSE, message: message, path: path)
    }
}
