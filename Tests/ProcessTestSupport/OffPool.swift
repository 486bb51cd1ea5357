import Foundation

/// Runs blocking work (a child process to wait for, a pipe to drain) on a new thread and waits for it
/// without holding one of Swift's cooperative threads.
///
/// The pool has one thread per core (two on the build machine). A test that blocks one of them while a
/// child process runs leaves the servers of tests running beside it without threads for their
/// handlers; their clients then time out.
public func runOffPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
