import CSQLite
import Foundation
import Synchronization

/// A SQLite database shared by many threads: one writer connection and a pool of readers.
///
/// On disk, the store runs in WAL mode (verified when opening: if SQLite does not answer
/// `wal`, opening fails), so readers never block the writer nor each other, and each read sees
/// a consistent snapshot. Writes are serialised by a lock around the single writer connection
/// and run as `BEGIN IMMEDIATE` transactions; a write returns only after `COMMIT` returned, so
/// with `synchronous = FULL` (the default) an acknowledged write is on disk.
///
/// In memory (``inMemory(configuration:)``), WAL is impossible, so the store has a single
/// connection: reads take the writer's lock and run in their own transaction on it. Reads
/// therefore wait for writes there; that is the price of not needing a file.
///
/// `write` and `read` are not reentrant: calling either from inside a `write` or `read`
/// closure of the same store deadlocks. Nest work with ``Database/inSavepoint(_:)`` instead.
///
/// A transaction whose work suspends (async code, such as interactive intents) runs in a
/// ``withWriteSession(isolation:_:)``; while one is open, `write` from other tasks waits for it,
/// and `write` (or, in memory, `read`) from the session's own task throws `SQLITE_MISUSE` rather
/// than deadlock.
///
/// Opening a file that is not a SQLite database fails with ``SQLiteError`` `SQLITE_NOTADB`
/// naming the path; the file is left untouched.
///
/// See [Write-Ahead Logging](https://www.sqlite.org/wal.html).
public final class DatabaseStore: Sendable {
    /// The database file, or `:memory:`.
    public let path: String
    /// The configuration the store was opened with.
    public let configuration: Configuration
    let writer: SerializedDatabase
    /// `nil` in memory, where reads use the writer.
    private let readers: ReaderPool?
    private let endedWrites = Atomic<UInt64>(0)

    /// How many write transactions (``write(_:)``, ``writeCapturingChanges(_:)``,
    /// ``withWriteSession(isolation:_:)``) have ended, committed or not.
    ///
    /// It moves on after `COMMIT` returned, before the write method returns: whoever reads a revision and then
    /// reads the database sees at least what was committed up to that revision. Something derived from reads done
    /// under one revision is therefore current as long as the revision has not moved (memoized query results).
    public var revision: UInt64 { endedWrites.load(ordering: .acquiring) }

    /// Called as each write transaction ends (see ``revision``).
    func writeEnded() {
        endedWrites.add(1, ordering: .releasing)
    }

    /// Opens (creating if needed) the database at `path` in WAL mode.
    ///
    /// - Parameters:
    ///   - path: The database file; its directory must exist.
    ///   - configuration: Durability, busy timeout and reader count.
    /// - Throws: ``SQLiteError``: `SQLITE_NOTADB` for a file that is not a database,
    ///   `SQLITE_CANTOPEN` for a missing directory or a file without permission, and an error
    ///   when the journal mode cannot be set to WAL.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.path = path
        self.configuration = configuration
        let writerConnection = try Database(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                                            busyTimeout: configuration.busyTimeout)
        let mode = try writerConnection.scalar("PRAGMA journal_mode = WAL", as: String.self)
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(extendedCode: SQLITE_ERROR,
                              message: "journal_mode answered \(mode ?? "nothing") instead of wal",
                              sql: "PRAGMA journal_mode = WAL", path: path)
        }
        try Self.configureWriter(writerConnection, configuration)
        var readerConnections: [Database] = []
        for _ in 0..<configuration.readerCount {
            readerConnections.append(try Database(path: path, flags: SQLITE_OPEN_READONLY,
                                                  busyTimeout: configuration.busyTimeout))
        }
        writer = SerializedDatabase(writerConnection)
        readers = ReaderPool(readerConnections)
    }

    private init(inMemory connection: Database, configuration: Configuration) {
        path = ":memory:"
        self.configuration = configuration
        writer = SerializedDatabase(connection)
        readers = nil
    }

    /// Opens a private in-memory database, gone when the store is.
    ///
    /// - Parameter configuration: `readerCount` is ignored: reads share the one connection.
    /// - Throws: ``SQLiteError`` when SQLite cannot allocate the database.
    public static func inMemory(configuration: Configuration = Configuration()) throws -> DatabaseStore {
        let connection = try Database(path: ":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                                      busyTimeout: configuration.busyTimeout)
        try configureWriter(connection, configuration)
        return DatabaseStore(inMemory: connection, configuration: configuration)
    }

    private static func configureWriter(_ connection: Database, _ configuration: Configuration) throws {
        try connection.execute("PRAGMA synchronous = \(configuration.synchronous.rawValue)")
        try connection.execute("PRAGMA foreign_keys = ON")
        let recorder = ChangeRecorder()
        connection.changeRecorder = recorder
        recorder.install(on: connection)
    }

    /// Whether the store lives in memory.
    public var isInMemory: Bool { readers == nil }

    /// Runs `body` in a write transaction: `BEGIN IMMEDIATE`, then `COMMIT`, or `ROLLBACK` if
    /// `body` throws.
    ///
    /// Writes from all threads are serialised. The method returns only after `COMMIT`
    /// returned, so what it returns describes committed, durable data.
    ///
    /// - Parameter body: The transaction's work, on the writer connection.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw (after rolling back), or ``SQLiteError`` from `BEGIN` or
    ///   `COMMIT` (e.g. `SQLITE_BUSY` when another process held the lock past the timeout,
    ///   `SQLITE_FULL` when the disk is full).
    ///
    /// See [BEGIN TRANSACTION](https://www.sqlite.org/lang_transaction.html).
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try checkNotInOwnSession(#function)
        defer { writeEnded() }
        return try writer.withDatabase { database in
            try Self.transaction(on: database, begin: "BEGIN IMMEDIATE", body)
        }
    }

    /// Runs `body` in a write transaction, like ``write(_:)``, and reports what it changed.
    ///
    /// Every row inserted, updated or deleted (through any SQL, triggers included) is recorded,
    /// except changes undone by a savepoint rolled back within the transaction. Recording is
    /// off during plain ``write(_:)`` calls.
    ///
    /// - Parameter body: The transaction's work, on the writer connection.
    /// - Returns: What `body` returned, and the committed changes.
    /// - Throws: Like ``write(_:)``; nothing is reported for a transaction that rolled back.
    public func writeCapturingChanges<T>(_ body: (Database) throws -> T) throws -> (value: T, changes: ChangeSet) {
        try checkNotInOwnSession(#function)
        defer { writeEnded() }
        return try writer.withDatabase { database in
            let recorder = database.changeRecorder!
            recorder.begin(wholeTransaction: true)
            defer { recorder.discard() }
            return try Self.transaction(on: database, begin: "BEGIN IMMEDIATE") { database in
                let value = try body(database)
                return (value, try recorder.finish(on: database))
            }
        }
    }

    /// Runs `body` in a read transaction, which sees one consistent snapshot of committed data.
    ///
    /// On disk, `body` runs on a read-only connection from the pool, in parallel with other
    /// reads and with the writer; in memory, it runs on the writer connection under its lock.
    ///
    /// - Parameter body: The reads; writing fails with `SQLITE_READONLY` on disk.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw, or ``SQLiteError``.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        if let readers {
            return try readers.withReader { database in
                try Self.transaction(on: database, begin: "BEGIN DEFERRED", body)
            }
        }
        try checkNotInOwnSession(#function)
        return try writer.withDatabase { database in
            try Self.transaction(on: database, begin: "BEGIN DEFERRED", body)
        }
    }

    /// Copies the write-ahead log into the database file and truncates the log.
    ///
    /// The store does not need this to be correct (SQLite checkpoints automatically); call it
    /// before copying the file, or to give disk space back after a burst of writes. A reader
    /// in the middle of a long read can keep it from completing.
    ///
    /// - Returns: Whether the checkpoint completed, and the frame counts.
    /// - Throws: ``SQLiteError`` for failures other than being blocked by readers.
    ///
    /// See [sqlite3_wal_checkpoint_v2](https://www.sqlite.org/c3ref/wal_checkpoint_v2.html).
    @discardableResult
    public func checkpoint() throws -> CheckpointResult {
        if isInMemory { return CheckpointResult(isComplete: true, logFrames: 0, checkpointedFrames: 0) }
        try checkNotInOwnSession(#function)
        return try writer.withDatabase { database in
            var logFrames: Int32 = 0
            var checkpointed: Int32 = 0
            let code = sqlite3_wal_checkpoint_v2(database.handle, nil, SQLITE_CHECKPOINT_TRUNCATE,
                                                 &logFrames, &checkpointed)
            if code != SQLITE_BUSY {
                try SQLiteError.check(code, database.handle, sql: "wal_checkpoint(TRUNCATE)")
            }
            return CheckpointResult(isComplete: code == SQLITE_OK, logFrames: Int(logFrames),
                                    checkpointedFrames: Int(checkpointed))
        }
    }

    static func transaction<T>(on database: Database, begin: String,
                                       _ body: (Database) throws -> T) throws -> T {
        try database.execute(begin)
        let value: T
        do {
            value = try body(database)
            try database.execute("COMMIT")
        } catch {
            // SQLite may already have rolled back (some errors do); only roll back what is open.
            if database.isInTransaction { try? database.execute("ROLLBACK") }
            throw error
        }
        return value
    }
}
