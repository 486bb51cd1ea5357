import Synchronization

/// Waits for a provider run at most a time limit.
///
/// The run goes on in its own task; when the limit passes first, the caller gets ``Exceeded`` and the run's task
/// is cancelled (a provider that awaits sees the cancellation; whatever it returns later is dropped).
enum ProviderDeadline {
    /// The provider did not finish in time.
    struct Exceeded: Error, Sendable, CustomStringConvertible {
        let limit: Duration

        var description: String { "the provider did not finish within its time limit of \(limit)" }
    }

    static func run<T: Sendable>(limit: Duration, _ body: @escaping @Sendable () async throws -> T)
        async throws -> T {
        let race = Race<T>()
        return try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            let work = Task {
                do {
                    race.finish(.success(try await body()))
                } catch {
                    race.finish(.failure(error))
                }
            }
            race.setTimer(Task {
                do { try await Task.sleep(for: limit) } catch { return }
                if race.finish(.failure(Exceeded(limit: limit))) { work.cancel() }
            })
        }
    }

    /// Who finishes first, the run or the timer: the continuation is resumed exactly once.
    private final class Race<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var timer: Task<Void, Never>?
            var finished = false
        }

        private let state = Mutex(State())

        func start(_ continuation: CheckedContinuation<T, any Error>) {
            state.withLock { $0.continuation = continuation }
        }

        func setTimer(_ timer: Task<Void, Never>) {
            let finished = state.withLock { state in
                state.timer = timer
                return state.finished
            }
            if finished { timer.cancel() }
        }

        /// Resumes the caller with `result` unless it was resumed already; true when this call did.
        @discardableResult
        func finish(_ result: Result<T, any Error>) -> Bool {
            let (continuation, timer) = state.withLock { state in
                guard !state.finished else { return (nil, nil) as (CheckedContinuation<T, any Error>?, Task<Void, Never>?) }
                state.finished = true
                defer { state.continuation = nil }
                return (state.continuation, state.timer)
            }
            guard let continuation else { return false }
            timer?.cancel()
            continuation.resume(with: result)
            return true
        }
    }
}
