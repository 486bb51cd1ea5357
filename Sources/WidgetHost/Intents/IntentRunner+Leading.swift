import Foundation

/// Group commit without a task of the runner's own: the callers take turns running batches (leader and followers).
///
/// A bound perform is queued. Its caller leads when no task is running batches: it takes the next batch (which
/// holds its own perform, the queue being empty or it being first), runs it, answers the rest of its batch, hands
/// the turn to the first perform still queued and returns its own answer. Every other caller suspends until it is
/// answered or handed the turn. So a perform costs its caller one suspension at most, and a batch's commit is
/// followed at once by the next one's, on the task it was handed to.
extension IntentRunner {
    /// Queues a bound perform and waits for its turn: returns its answer, after leading its batch if it was handed
    /// the turn (or found no one leading).
    func commit(_ request: PerformRequest, _ bound: IntentParameterBinder.Bound) async
        -> Result<IntentOutcome, any Error> {
        var ticket: UInt64 = 0
        let turn = await withUnsafeContinuation { (continuation: UnsafeContinuation<Turn, Never>) in
            let (leads, gatherer) = scheduling.withLock { state in
                state.preparing -= 1
                ticket = state.nextTicket
                state.nextTicket += 1
                state.queue.append(QueuedPerform(request: request, bound: bound, continuation: continuation,
                                                 ticket: ticket))
                guard !state.isLeading else {
                    return (false, state.takeReadyGatherer(maximumBatchSize: maximumBatchSize))
                }
                state.isLeading = true
                return (true, nil)
            }
            gatherer?.resume()
            if leads { continuation.resume(returning: .lead) }
        }
        switch turn {
        case .answered(let result): return result
        case .lead: return await lead(ticket)
        }
    }

    /// Runs the next batch, which holds the perform `ticket`, then answers the others and hands the turn on.
    private func lead(_ ticket: UInt64) async -> Result<IntentOutcome, any Error> {
        // The tasks already woken go first: callers the batch before answered (whose next performs are about to be
        // queued) and requests just arrived. On a single thread they could not join this batch otherwise, as the
        // batch's `COMMIT` holds the thread: a leader taking its batch at once would commit alone, one perform per
        // transaction, every time.
        await Task.yield()
        while true {
            switch nextBatch() {
            case .wait(let deadline):
                await gather(until: deadline)
            case .batch(var batch, let marking):
                var results = await run(batch, markingDone: marking)
                // The answers go out first: their callers' next performs, being prepared as the next leader takes
                // its batch, make it wait for them (within the window), so the batches stay large. Each is taken
                // out of the list, not copied.
                var own: Result<IntentOutcome, any Error>?
                for (index, item) in batch.enumerated() {
                    let result = Self.takeOut(&results[index], leaving: .failure(Self.standIn))
                    if item.ticket == ticket {
                        own = result
                    } else {
                        item.continuation.resume(returning: .answered(result))
                    }
                }
                batch.removeAll(keepingCapacity: true)
                let next = scheduling.withLock { state -> UnsafeContinuation<Turn, Never>? in
                    if state.spareQueue.capacity < batch.capacity { swap(&state.spareQueue, &batch) }
                    if let first = state.queue.first { return first.continuation }
                    state.isLeading = false
                    markReloadedOwedSoon(&state)
                    return nil
                }
                next?.resume(returning: .lead)
                guard let own else { preconditionFailure("a leading perform is in the batch it leads") }
                return own
            }
        }
    }

    private enum NextBatch {
        /// Performs to run in one transaction, which also marks these owed reloads done.
        case batch([QueuedPerform], markingDone: [Int64])
        /// Performs are being prepared: wait for them, at the latest until the window's end.
        case wait(until: ContinuousClock.Instant)
    }

    /// Takes the next batch off the queue, with the owed reloads that ran since the last one, or asks to wait while
    /// performs are still being prepared (within the group-commit window).
    private func nextBatch() -> NextBatch {
        scheduling.withLock { state in
            if state.preparing > 0, state.queue.count < maximumBatchSize {
                let now = ContinuousClock.now
                let since = state.gatheringSince ?? now
                state.gatheringSince = since
                if now - since < Self.groupCommitWindow { return .wait(until: since + Self.groupCommitWindow) }
            }
            state.gatheringSince = nil
            let count = min(state.queue.count, maximumBatchSize)
            var batch: [QueuedPerform] = []
            if count == state.queue.count {
                swap(&batch, &state.spareQueue)
                swap(&batch, &state.queue)
            } else {
                batch = Array(state.queue.prefix(count))
                state.queue.removeFirst(count)
            }
            state.statistics.performs += count
            state.statistics.transactions += 1
            return .batch(batch, markingDone: state.takeReloadedOwed())
        }
    }

    /// Waits, as the leading task, until no perform is being prepared any more or the batch is full (whichever
    /// comes first), at the latest until `deadline`.
    ///
    /// Woken by the performs themselves (``endPreparing()``, ``commit(_:_:)``), not by polling: a wait costs one
    /// timer and one resumption however many performs arrive meanwhile.
    private func gather(until deadline: ContinuousClock.Instant) async {
        let timer = Task { [weak self] in
            // Cancelled once the wait has ended otherwise: it must not end a later one early.
            guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
            self?.endGathering()
        }
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let waits = scheduling.withLock { state in
                // Past the deadline already (this task ran late): the timer may have fired before there was a wait.
                guard state.preparing > 0, state.queue.count < maximumBatchSize,
                      ContinuousClock.now < deadline else { return false }
                state.gatherer = continuation
                return true
            }
            if !waits { continuation.resume() }
        }
        timer.cancel()
    }

    /// A perform stopped preparing without being queued (it failed, or was answered from its first outcome).
    func endPreparing() {
        let gatherer = scheduling.withLock { state in
            state.preparing -= 1
            return state.takeReadyGatherer(maximumBatchSize: maximumBatchSize)
        }
        gatherer?.resume()
    }

    private func endGathering() {
        scheduling.withLock { $0.takeGatherer() }?.resume()
    }
}
