import AppIntents
import Foundation
import HostBridge
import JSON
import SharedState

extension IntentRunner {
    /// One perform's result inside a batch, before the commit.
    enum BatchResult {
        /// It ran (or would have, in a dry run); the reloads it asked for are still to be made.
        case performed(IntentOutcome, requests: [EngineBinding.ReloadRequest])
        /// A retry: the stored first outcome.
        case replayed(IntentOutcome)
        case failed(any Error)
    }

    /// Runs a batch of performs in one transaction, then their reloads, then acknowledges each.
    nonisolated func run(_ batch: [QueuedPerform]) async {
        var results: [BatchResult]
        do {
            results = try await container.store.withWriteSession { session in
                try session.withDatabase { db in try IdempotencyLedger.purge(now: engine.clock.now, db) }
                var results: [BatchResult] = []
                results.reserveCapacity(batch.count)
                for item in batch {
                    results.append(await perform(item, in: session))
                }
                return results
            }
        } catch {
            // BEGIN or COMMIT failed: no perform of the batch was applied.
            for item in batch {
                item.continuation.resume(throwing: IntentError.transactionFailed(intent: item.request.intentName,
                                                                                 message: "\(error)"))
            }
            return
        }
        await reloadAfterCommit(&results)
        for (item, result) in zip(batch, results) {
            switch result {
            case .performed(let outcome, _), .replayed(let outcome): item.continuation.resume(returning: outcome)
            case .failed(let error): item.continuation.resume(throwing: error)
            }
        }
    }

    /// Runs one perform inside the batch's transaction, in its own savepoint.
    private nonisolated func perform(_ item: QueuedPerform, in session: WriteSession) async -> BatchResult {
        let request = item.request
        let now = engine.clock.now
        do {
            if let key = request.idempotencyKey, !request.isDryRun,
               let entry = try session.withDatabase({ db in try IdempotencyLedger.entry(forKey: key, now: now, db) }) {
                return .replayed(try Self.replay(entry, key: key, request: request))
            }
            guard let key = request.idempotencyKey, !request.isDryRun else {
                return try await execute(item, in: session, now: now)
            }
            // The key is written in a savepoint around the perform's, so both commit or neither does.
            let (result, _) = try await session.savepoint(reportingChanges: false) {
                let result = try await execute(item, in: session, now: now)
                guard case .performed(var outcome, let requests) = result else { return result }
                outcome.idempotency = IdempotencyInfo(key: key, isReplay: false, firstPerformedAt: now,
                                                      expiresAt: now.addingTimeInterval(idempotencyRetention))
                let stored = outcome
                try session.withDatabase { db in
                    try IdempotencyLedger.record(key: key, request: IdempotencyLedger.requestText(request),
                                                 outcome: stored, expiresAt: now.addingTimeInterval(idempotencyRetention),
                                                 db)
                }
                return .performed(outcome, requests: requests)
            }
            return result
        } catch {
            return .failed(error)
        }
    }

    /// Runs `perform()` with the host bound to this perform's transaction; a throw rolls its savepoint back.
    private nonisolated func execute(_ item: QueuedPerform, in session: WriteSession, now: Date) async throws
        -> BatchResult {
        let request = item.request
        let name = request.intentName
        let intent = item.bound.intent
        let transaction = IntentTransaction(container: container, session: session, isDryRun: request.isDryRun)
        let failures = PerformFailures()
        let engine = self.engine
        let binding = PerformBinding(transaction: transaction, otherContainers: engine.containers, intentName: name,
                                     failures: failures) { try await engine.currentConfigurations() }
        let environment = HostEnvironment(now: now, timeZone: engine.timeZone, containers: engine.containers)
        let performed: (value: (value: JSONValue?, dialog: String?), changes: ChangeSet)
        do {
            performed = try await session.savepoint(rollingBack: request.isDryRun) {
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
            }
        } catch let error as IntentError {
            throw error
        } catch {
            throw IntentError.performFailed(intent: name, message: "\(error)")
        }
        let requests = binding.reloadRequests
        if !request.isDryRun { try await engine.storeRelevanceSignals(binding.relevanceSignals.take()) }
        let planned = try engine.planIntentReloads(tappedInstanceID: request.instanceID, requests: requests)
        let outcome = IntentOutcome(
            intentName: name, parameters: item.bound.parameters, instanceID: request.instanceID,
            value: performed.value.value, dialog: performed.value.dialog, changes: performed.changes,
            requestedReloads: requests.map(\.label), plannedReloads: planned, isDryRun: request.isDryRun,
            performedAt: now)
        return .performed(outcome, requests: request.isDryRun ? [] : requests)
    }
}

extension EngineBinding.ReloadRequest {
    /// The kind, or `*` for every kind.
    var label: String {
        switch self {
        case .kind(let kind): kind
        case .all: "*"
        }
    }
}
