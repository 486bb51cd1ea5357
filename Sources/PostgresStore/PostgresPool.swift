import Foundation

/// A small pool of PostgreSQL connections to one database, shared by every thread of a process.
///
/// A connection is lent to one closure at a time (``withConnection(_:)``, ``transaction(isolation:_:)``) and
/// comes back to the pool after it, unless it broke or was left inside a transaction, in which case it is
/// closed and a fresh one is made when next needed. No connection is made before one is needed, so a pool
/// over a server that is down is created without error and fails (``PostgresError/Kind/unavailable``) only
/// when used; once the server is back, the next call connects again: nothing needs restarting.
///
/// When every connection is lent, callers wait for one.
public final class PostgresPool: @unchecked Sendable {
    // @unchecked Sendable: `idle` and `openCount` are read and written only while `condition` is locked, and a
    // connection taken out of `idle` is used by one thread until it is handed back.

    /// The most connections the pool keeps open at once.
    public let maximumConnections: Int
    private let connectionString: String
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    private var openCount = 0

    /// Creates a pool; connects lazily.
    /// - Parameters:
    ///   - connectionString: A `postgres://` URL or libpq `key=value` string.
    ///   - maximumConnections: At least 1.
    /// - Throws: ``PostgresError`` `.badConnectionString` when libpq cannot parse it, `.clientLibraryMissing` when
    ///   libpq cannot be loaded.
    public init(connectionString: String, maximumConnections: Int = 4) throws {
        precondition(maximumConnections >= 1, "a pool needs at least one connection")
        try PostgresConnection.validateConnectionString(connectionString)
        self.connectionString = connectionString
        self.maximumConnections = maximumConnections
    }

    /// Lends a connection to `body`, outside any transaction (each statement commits on its own).
    /// - Throws: What `body` threw, or ``PostgresError`` `.unavailable` when no connection can be made.
    @discardableResult
    public func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    /// Closes the idle connections (those lent out close when they come back broken, or stay).
    public func closeIdleConnections() {
        condition.lock()
        openCount -= idle.count
        idle.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    func checkOut() throws -> PostgresConnection {
        condition.lock()
        while idle.isEmpty && openCount >= maximumConnections { condition.wait() }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        openCount += 1
        condition.unlock()
        do {
            return try PostgresConnection(connectionString: connectionString)
        } catch {
            condition.lock()
            openCount -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    func checkIn(_ connection: PostgresConnection) {
        let keep = !connection.isBroken && !connection.isInTransaction
        condition.lock()
        if keep { idle.append(connection) } else { openCount -= 1 }
        condition.signal()
        condition.unlock()
    }

    /// Closes a connection that must not be reused (it broke mid-transaction).
    func discard(_ connection: PostgresConnection) {
        condition.lock()
        openCount -= 1
        condition.signal()
        condition.unlock()
    }
}
