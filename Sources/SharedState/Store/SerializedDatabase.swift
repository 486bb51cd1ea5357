import Foundation

/// A connection that one thread at a time may use, behind a lock.
///
/// `@unchecked Sendable` is safe here because the only stored state, the non-thread-safe
/// ``Database``, is reachable solely through ``withDatabase(_:)``, which holds ``lock`` for
/// the whole time the closure runs; the lock also orders memory between threads.
final class SerializedDatabase: @unchecked Sendable {
    private let lock = NSLock()
    private let database: Database

    init(_ database: Database) {
        self.database = database
    }

    /// Runs `body` with exclusive use of the connection.
    ///
    /// Not reentrant: calling it again from inside `body` deadlocks.
    func withDatabase<T>(_ body: (Database) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(database)
    }
}

/// A fixed set of read-only connections, handed out one caller at a time each.
///
/// `@unchecked Sendable` is safe here because the free list is only read and changed while
/// holding ``lock``, and a connection taken from it is used by exactly one thread until it is
/// put back; the condition's lock orders memory between the threads that pass it along.
final class ReaderPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var available: [Database]

    init(_ readers: [Database]) {
        precondition(!readers.isEmpty, "a reader pool needs at least one connection")
        available = readers
    }

    /// Runs `body` with a connection of its own, waiting while all are in use.
    func withReader<T>(_ body: (Database) throws -> T) rethrows -> T {
        condition.lock()
        while available.isEmpty { condition.wait() }
        let reader = available.removeLast()
        condition.unlock()
        defer {
            condition.lock()
            available.append(reader)
            condition.signal()
            condition.unlock()
        }
        return try body(reader)
    }
}
