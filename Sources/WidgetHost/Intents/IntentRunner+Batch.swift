import AppIntents
import Foundation
import HostBridge
import JSON
import SharedState

extension IntentRunner {
    /// One perform's result inside a batch, before the commit.
    enum BatchResult {
        /// It ran (or would have, in a dry run), with the reloads it owes (none for a dry run), still to be made.
        case performed(IntentOutcome, owed: [OwedReloadLedger.Entry])
        /// A retry: the stored first outcome, with the reloads its first perform still owes that no one else runs.
        case replayed(IntentOutcome, owed: [OwedReloadLedger.Entry])
        case failed(any Error)

        var owed: [OwedReloadLedger.Entry] {
            switch self {
            case .performed(_, let owed), .replayed(_, let owed): owed
            case .failed: []
            }
        }
    }

    /// What stands in a batch's list while one of its results or answers is moved out.
    static let standIn: any Error = CancellationError()

    /// Moves the value out of `slot`, leaving `standIn` there: a batch's outcomes are changed or handed on without
    /// being copied (a copy retains every one of their parts).
    static func takeOut<Value>(_ slot: inout Value, leaving standIn: Value) -> Value {
        var value = standIn
        swap(&value, &slot)
        return value
    }

    /// Runs a batch of performs in one transaction, then their reloads.
    /// - Parameter reloaded: Owed entries of earlier batches whose reloads ran, marked done in this transaction;
    ///   handed back to be marked later when the transaction fails. The entries whose reloads this batch runs are
    ///   handed over to be marked done before it returns, so before any of its performs is acknowledged.
    /// - Returns: Each perform's answer, in the batch's order.
    func run(_ batch: [QueuedPerform], markingDone reloaded: [Int64]) async -> [Result<IntentOutcome, any Error>] {
        var results: [BatchResult]
        var claimed: [Int64] = []
        do {
            results = try await container.store.withWriteSession { session in
                let now = engine.clock.now
                try session.withDatabase { db in
                    try IdempotencyLedger.purge(now: now, db)
                    try OwedReloadLedger.purge(doneThrough: now.addingTimeInterval(-idempotencyRetention), db)
                    try OwedReloadLedger.markDone(reloaded, at: now, db)
                }
                var results: [BatchResult] = []
                results.reserveCapacity(batch.count)
                let plans = BatchReloadPlans()
                for item in batch {
                    results.append(await perform(item, in: session, plans: plans))
                }
                // Claimed before the commit, so a replay reading the committed rows leaves these to this batch.
                claimed = claimOwed(&results)
                return results
            }
        } catch {
            // BEGIN or COMMIT failed: no perform of the batch was applied, and nothing was marked done.
            claims.release(claimed)
            markLater(reloaded)
            return batch.map { item in
                .failure(IntentError.transactionFailed(intent: item.request.intentName, message: "\(error)"))
            }
        }
        claims.release(reloaded)
        let ran = await reloadAfterCommit(&results).map(\.id)
        // Failed reloads stay owed: released, so a replay of their key runs them.
        claims.release(claimed.filter { !ran.contains($0) })
        // Handed over before the acknowledgements, so ``markReloadsDone()`` after a perform returned sees them.
        markLater(ran)
        // Moved out, rather than mapped: a copy of each outcome, then the release of every one of its values with the
        // array, cost more than the answer's own handing over. Taken out in place (`removeFirst` moved the rest of
        // the list down each time, outcomes of a few hundred bytes each).
        var answers: [Result<IntentOutcome, any Error>] = []
        answers.reserveCapacity(results.count)
        for index in results.indices {
            switch Self.takeOut(&results[index], leaving: .failed(Self.standIn)) {
            case .performed(let outcome, _), .replayed(let outcome, _): answers.append(.success(outcome))
            case .failed(let error): answers.append(.failure(error))
            }
        }
        return answers
    }

    /// Claims the reloads the batch's results owe; a replay keeps only those no one else is running.
    ///
    /// Read through ``BatchResult/owed`` and matched without binding, so no outcome is copied (a copy retains each of
    /// its parts); a replay's outcome is moved, not copied, into its result with the entries it keeps.
    /// - Returns: The ids claimed.
    private func claimOwed(_ results: inout [BatchResult]) -> [Int64] {
        var claimed: [Int64] = []
        claimed.reserveCapacity(results.count)
        for index in results.indices {
            let owed = results[index].owed
            guard !owed.isEmpty else { continue }
            let mine = claims.claim(owed)
            for entry in mine { claimed.append(entry.id) }
            guard case .replayed = results[index] else { continue }
            if case .replayed(let outcome, _) = Self.takeOut(&results[index], leaving: .failed(Self.standIn)) {
                results[index] = .replayed(outcome, owed: mine)
            }
        }
        return claimed
    }

    /// Runs one perform inside the batch's transaction, in its own savepoint.
    private func perform(_ item: QueuedPerform, in session: WriteSession,
                                     plans: BatchReloadPlans) async -> BatchResult {
        let request = item.request
        let now = engine.clock.now
        do {
            if !request.isDryRun, let key = request.idempotencyKey,
               let replay = try session.withDatabase({ db -> BatchResult? in
                   guard let entry = try IdempotencyLedger.entry(forKey: key, now: now, db) else { return nil }
                   return .replayed(try Self.replay(entry, key: key, request: request),
                                    owed: try OwedReloadLedger.owed(forKey: key, db))
               }) {
                return replay
            }
            return try await execute(item, in: session, now: now, plans: plans)
        } catch {
            return .failed(error)
        }
    }

    /// Runs `perform()` with the host bound to this perform's transaction, in one savepoint with what it leaves
    /// behind: its changes, its key and the reloads it owes commit together or not at all. A throw rolls it all
    /// back; a dry run is rolled back after its outcome is taken, and records nothing.
    private func execute(_ item: QueuedPerform, in session: WriteSession, now: Date,
                                     plans: BatchReloadPlans) async throws -> BatchResult {
        let request = item.request
        let name = request.intentName
        let intent = item.bound.intent
        let transaction = IntentTransaction(container: container, session: session, isDryRun: request.isDryRun)
        let failures = PerformFailures()
        let engine = self.engine
        let environment = HostEnvironment(now: now, timeZone: engine.timeZone, containers: engine.containers)
        let binding = UserCodeBinding.forPerform(in: transaction, otherContainers: engine.containers,
                                                 device: environment, activities: engine.activities,
                                                 intentName: name, failures: failures, engine: engine)
        let runIntent = { () async throws -> (value: JSONValue?, dialog: String?) in
            do {
                let result = try await HostContext.withBinding(binding) {
                    try await HostEnvironment.$current.withValue(environment) {
                        try await IntentTransaction.$current.withValue(transaction) {
                            try await intent.perform()
                        }
                    }
                }
                // A UserDefaults write that failed (it cannot throw) fails the perform rather than half-apply it.
                if let failure = failures.first { throw failure }
                return (IntentResultValue.json(result.returnedValue), result.returnedDialog?.full.defaultValue)
            } catch let error as IntentError {
                throw error
            } catch {
                // The cause travels with the answer so ``IntentRunner/performRethrowing(_:)`` can hand it to a test.
                throw IntentPerformFailure(intentError: .performFailed(intent: name, message: "\(error)"),
                                           underlying: error)
            }
        }
        func outcome(_ performed: (value: JSONValue?, dialog: String?), changes: ChangeSet,
                     requests: [UserCodeBinding.ReloadRequest],
                     controlRequests: [UserCodeBinding.ReloadRequest],
                     idempotency: IdempotencyInfo? = nil) throws -> IntentOutcome {
            let planned = try plans.plan(tappedInstanceID: request.instanceID, requests: requests) {
                try engine.planIntentReloads(tappedInstanceID: request.instanceID, requests: requests)
            }
            var outcome = IntentOutcome(
                intentName: name, parameters: item.bound.parameters, instanceID: request.instanceID,
                value: performed.value, dialog: performed.dialog, changes: changes,
                requestedReloads: requests.map(\.label), plannedReloads: planned, isDryRun: request.isDryRun,
                performedAt: now)
            outcome.requestedControlReloads = controlRequests.isEmpty ? nil : controlRequests.map(\.label)
            outcome.idempotency = idempotency
            return outcome
        }
        if request.isDryRun {
            let performed = try await session.savepoint(rollingBack: true) { try await runIntent() }
            return .performed(try outcome(performed.value, changes: performed.changes,
                                          requests: binding.reloadRequests,
                                          controlRequests: binding.controlReloadRequests), owed: [])
        }
        /// The outcome, and what the perform leaves in the ledgers (its key, the reloads it owes), in its savepoint.
        /// Synchronous: built in the savepoint's async closure, the outcome was copied into the result and the
        /// original destroyed.
        func record(_ performed: (value: JSONValue?, dialog: String?), changes: ChangeSet,
                    requests: [UserCodeBinding.ReloadRequest],
                    controlRequests: [UserCodeBinding.ReloadRequest]) throws -> BatchResult {
            let key = request.idempotencyKey
            let expiresAt = now.addingTimeInterval(idempotencyRetention)
            let outcome = try outcome(performed, changes: changes, requests: requests,
                                      controlRequests: controlRequests,
                                      idempotency: key.map { IdempotencyInfo(key: $0, isReplay: false,
                                                                             firstPerformedAt: now,
                                                                             expiresAt: expiresAt) })
            // Written out here, so the closure below takes the bytes rather than a copy of the outcome.
            let stored: (request: String, outcome: Data)? = if key != nil {
                (IdempotencyLedger.requestText(request), try outcome.storedJSON())
            } else {
                nil
            }
            let owed = try session.withDatabase { db in
                if let key, let stored {
                    try IdempotencyLedger.record(key: key, request: stored.request, storedOutcome: stored.outcome,
                                                 performedAt: now, expiresAt: expiresAt, db)
                }
                return try OwedReloadLedger.record(idempotencyKey: key, instanceID: request.instanceID,
                                                   requests: requests, controlID: request.controlID,
                                                   controlRequests: controlRequests,
                                                   committedAt: now, db)
            }
            return .performed(outcome, owed: owed.map { [$0] } ?? [])
        }
        // One savepoint: the intent's changes are reported, then its key and owed reloads are written unreported.
        return try await session.savepoint(reportingChangesOf: runIntent) { performed, changes in
            let requests = binding.reloadRequests
            let controlRequests = binding.controlReloadRequests
            let signals = binding.relevanceSignals.take()
            if !signals.donations.isEmpty || signals.relevantIntents != nil {
                // Onto the engine only when there is something to store: most performs donate nothing.
                try await engine.storeRelevanceSignals(signals)
            }
            return try record(performed, changes: changes, requests: requests, controlRequests: controlRequests)
        }
    }
}
