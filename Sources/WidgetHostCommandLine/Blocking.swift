import Foundation
import Synchronization

/// Runs async work from the synchronous command-line entry point and waits for it.
package enum Blocking {
    /// Runs `work` on a detached task and blocks the calling thread (the main thread, which is not one of the
    /// concurrency runtime's threads) until it finishes.
    package static func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                box.set(.success(try await work()))
            } catch {
                box.set(.failure(error))
            }
            done.signal()
        }
        done.wait()
        return box.get()
    }

    /// The result handed from the task to the waiting thread.
    private final class ResultBox<T: Sendable>: Sendable {
        private let result = Mutex<Result<T, any Error>?>(nil)

        func set(_ value: Result<T, any Error>) { result.withLock { $0 = value } }

        func get() -> Result<T, any Error> {
            guard let value = result.withLock({ $0 }) else { preconditionFailure("read before the task finished") }
            return value
        }
    }
}
