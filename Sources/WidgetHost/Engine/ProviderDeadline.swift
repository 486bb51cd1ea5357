import Synchronization

/// Runs a batch of provider runs one after another, each within a time limit of its own.
///
/// The runs go on in one worker task, and one watchdog task waits for the deadline of the run in progress: a batch
/// costs two tasks and one resumption of the caller, however many runs it holds (a task and a timer per run made
/// each run pay for two thread wake-ups, which a loaded machine makes slow). When a run passes its limit, the
/// watchdog records ``Exceeded`` for it, cancels its worker (a provider that awaits sees the cancellation; whatever
/// it returns later is dropped) and starts a new worker with the runs after it.
enum ProviderDeadline {
    /// The provider did not finish in time.
    struct Exceeded: Error, Sendable, CustomStringConvertible {
        let limit: Duration

        var description: String { "the provider did not finish within its time limit of \(limit)" }
    }

    /// Runs `body` on each input in order, each run within `limit` from its own start.
    /// - Returns: One result per input, in order: what `body` returned or threw, or ``Exceeded``.
    static func runEach<Input: Sendable, Output: Sendable>(
        _ inputs: [Input], limit: Duration, _ body: @escaping @Sendable (Input) async throws -> Output)
        async -> [Result<Output, any Error>] {
        guard !inputs.isEmpty else { return [] }
        let batch = Batch(inputs: inputs, limit: limit, body: body)
        return await withCheckedContinuation { continuation in batch.start(continuation) }
    }

    /// The state of one batch, shared by the caller, the current worker and the watchdog.
    private final class Batch<Input: Sendable, Output: Sendable>: Sendable {
        private struct State {
            var results: [Result<Output, any Error>?]
            var remaining: Int
            /// The next input to start.
            var cursor = 0
            /// The run in progress: its input and when it started.
            var current: (index: Int, started: ContinuousClock.Instant)?
            /// The worker allowed to record results; a worker given up on finds another generation here.
            var generation = 0
            var worker: Task<Void, Never>?
            var watchdog: Task<Void, Never>?
            var continuation: CheckedContinuation<[Result<Output, any Error>], Never>?
        }

        private let inputs: [Input]
        private let limit: Duration
        private let body: @Sendable (Input) async throws -> Output
        private let state: Mutex<State>

        init(inputs: [Input], limit: Duration, body: @escaping @Sendable (Input) async throws -> Output) {
            self.inputs = inputs
            self.limit = limit
            self.body = body
            state = Mutex(State(results: Array(repeating: nil, count: inputs.count), remaining: inputs.count))
        }

        func start(_ continuation: CheckedContinuation<[Result<Output, any Error>], Never>) {
            state.withLock { $0.continuation = continuation }
            // Tasks are made outside the lock: one that starts at once on another thread would wait for it.
            let worker = work(generation: 0)
            let watchdog = Task { await self.watch() }
            let finished = state.withLock { state in
                if state.generation == 0 { state.worker = worker }
                state.watchdog = watchdog
                return state.remaining == 0
            }
            if finished { watchdog.cancel() }
        }

        /// Runs inputs from the cursor on, as long as this worker's generation is the current one.
        private func work(generation: Int) -> Task<Void, Never> {
            Task {
                while let index = next(generation: generation) {
                    let result: Result<Output, any Error>
                    do {
                        result = .success(try await body(inputs[index]))
                    } catch {
                        result = .failure(error)
                    }
                    guard record(result, at: index, generation: generation) else { return }
                }
            }
        }

        private func next(generation: Int) -> Int? {
            state.withLock { state in
                guard state.generation == generation, state.cursor < inputs.count else { return nil }
                let index = state.cursor
                state.cursor += 1
                state.current = (index, ContinuousClock.now)
                return index
            }
        }

        /// Stores a result unless the run was given up on; resumes the caller after the last one.
        /// - Returns: False when this worker must stop.
        private func record(_ result: Result<Output, any Error>, at index: Int, generation: Int) -> Bool {
            let (recorded, finished) = state.withLock { state -> (Bool, (() -> Void)?) in
                guard state.generation == generation, state.results[index] == nil else { return (false, nil) }
                return (true, Self.store(result, at: index, &state))
            }
            finished?()
            return recorded
        }

        /// Stores one result; when it is the last, returns what resumes the caller and stops the watchdog.
        private static func store(_ result: Result<Output, any Error>, at index: Int, _ state: inout State)
            -> (() -> Void)? {
            state.results[index] = result
            state.current = nil
            state.remaining -= 1
            guard state.remaining == 0, let continuation = state.continuation else { return nil }
            state.continuation = nil
            let results = state.results.map { $0 ?? .failure(CancellationError()) }
            let watchdog = state.watchdog
            return {
                watchdog?.cancel()
                continuation.resume(returning: results)
            }
        }

        /// Sleeps until the deadline of the run in progress; gives up on a run still going then.
        private func watch() async {
            while !Task.isCancelled {
                let deadline: ContinuousClock.Instant? = state.withLock { state in
                    guard state.remaining > 0 else { return nil }
                    return state.current.map { $0.started.advanced(by: limit) } ?? .now.advanced(by: limit)
                }
                guard let deadline else { return }
                if deadline > .now {
                    do { try await Task.sleep(until: deadline, clock: .continuous) } catch { return }
                    continue
                }
                let givenUp = state.withLock { state -> (hung: Task<Void, Never>?, finished: (() -> Void)?,
                                                         next: Int?)? in
                    guard let current = state.current, current.started.advanced(by: limit) <= .now else {
                        return nil
                    }
                    let hung = state.worker
                    state.worker = nil
                    state.generation += 1
                    let finished = Self.store(.failure(Exceeded(limit: limit)), at: current.index, &state)
                    return (hung, finished, state.cursor < inputs.count ? state.generation : nil)
                }
                guard let givenUp else { continue }
                givenUp.hung?.cancel()
                givenUp.finished?()
                if let generation = givenUp.next {
                    let worker = work(generation: generation)
                    state.withLock { state in if state.generation == generation { state.worker = worker } }
                }
            }
        }
    }
}
