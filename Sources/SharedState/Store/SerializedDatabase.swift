import Foundation

/// A connection that one holder at a time may use, behind a ``WriterGate``.
///
/// `@unchecked Sendable` is safe here because the only stored state, the non-thread-safe
/// ``Database``, is reachable solely through ``withDatabase(_:)``, which holds the gate for the
/// whole time the closure runs, and through ``heldDatabase``, which callers read only between
/// ``acquire()``/``acquireAsync()`` and ``release()`` (a write session); the gate's lock orders
/// memory between the threads that pass the connection along.
final class SerializedDatabase: @unchecked Sendable {
    private let gate = WriterGate()
    private let database: Database

    init(_ database: Database) {
        self.database = database
    }

    /// Runs `body` with exclusive use of the connection.
    ///
    /// Not reentrant: calling it again from inside `body` deadlocks.
    func withDatabase<T>(_ body: (Database) throws -> T) rethrows -> T {
        gate.acquire()
        defer { gate.release() }
        return try body(database)
    }

    /// Takes exclusive use of the connection without blocking a thread while it waits; the caller
    /// must ``release()`` it, possibly from another thread.
    func acquireAsync() async {
        await gate.acquireAsync()
    }

    /// Gives up the use taken with ``acquireAsync()``.
    func release() {
        gate.release()
    }

    /// The connection, for a holder between ``acquireAsync()`` and ``release()``.
    var heldDatabase: Database { database }
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
