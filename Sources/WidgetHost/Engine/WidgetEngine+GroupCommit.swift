import Foundation
import SharedState
import WidgetKit

/// What one batch of a reload decided, waiting for its commit.
struct ReloadBatch: Sendable {
    /// A configuration that may not reload now, with when its budget allows it.
    struct Deferral: Sendable {
        var key: String
        var reason: ReloadReason
        var until: Date
    }

    var runs: [ProviderRun] = []
    var deferrals: [Deferral] = []

    /// True when the batch has nothing to store.
    var isEmpty: Bool { runs.isEmpty && deferrals.isEmpty }
}

/// What the commit of one ``ReloadBatch`` stored: the records of its runs, in order, and the first configuration
/// whose writes failed (rolled back alone; the caller throws it once its other batches are stored).
struct CommittedBatch: Sendable {
    var records: [ReloadRecord] = []
    var failure: (any Error)?
}

/// One configuration's provider run, done: what to store for it.
struct ProviderRun: Sendable {
    var key: String
    var reason: ReloadReason
    /// True when the run is charged to the configuration's budget (its reason is not exempt).
    var charged: Bool
    var outcome: ProviderRunOutcome
    var diagnostics: [TimelineDiagnostic]
    var ranAt: Date
    var next: ScheduledReload?
    var outcomeText: String
}

/// One provider run to make, with what its provider needs.
struct ProviderJob: Sendable {
    var key: String
    var configuration: ConfigurationToRun
    var descriptor: WidgetKindDescriptor
    var context: TimelineProviderContext
}

extension WidgetEngine {
    /// How many configurations one durable transaction of a reload stores (group commit).
    public static let reloadBatchSize = 128

    /// Runs the providers of a batch's configurations one after another, each within ``providerTimeLimit``, and
    /// validates what each returned.
    /// - Parameter configurations: Each configuration as read (a batch reads all of its own in one snapshot).
    /// - Returns: What to store for each, in order.
    /// - Throws: ``EngineError`` for a configuration of a kind or family the catalog does not know (before any
    ///   provider runs).
    func runProviders(_ configurations: [(key: String, configuration: ConfigurationToRun)], reason: ReloadReason,
                      charged: Bool) async throws -> [ProviderRun] {
        let jobs = try configurations.map { key, configuration in
            let family = try Self.family(named: configuration.family)
            return ProviderJob(key: key, configuration: configuration, descriptor: try descriptor(kind: configuration.kind),
                               context: TimelineProviderContext(family: family, isPreview: false,
                                                                displaySize: family.typicalDisplaySize))
        }
        let produced = await ProviderDeadline.runEach(jobs, limit: providerTimeLimit) { job in
            try await self.withUserCode {
                try await job.descriptor.source.timeline(job.configuration.parameters, kind: job.configuration.kind,
                                                         context: job.context)
            }
        }
        return zip(jobs, produced).map { job, produced in
            let outcome: ProviderRunOutcome
            var diagnostics = job.configuration.resolutionDiagnostics
            do {
                let timeline = try produced.get()
                diagnostics = timeline.diagnostics
                outcome = .accepted(try TimelineValidator.validate(entries: timeline.entries, policy: timeline.policy,
                                                                   generatedAt: clock.now))
            } catch let rejection as TimelineValidator.Rejection {
                outcome = .rejected(rejection.description)
            } catch {
                // A resolution error, an entity query that threw, a provider past its time limit: the previous
                // timeline stays and a retry is scheduled, so one bad configuration cannot stall the scheduler.
                outcome = .rejected("\(error)")
            }
            let ranAt = clock.now
            switch outcome {
            case .accepted(let validated):
                return ProviderRun(key: job.key, reason: reason, charged: charged, outcome: outcome,
                                   diagnostics: diagnostics, ranAt: ranAt,
                                   next: Self.nextReload(after: validated.timeline, ranAt: ranAt),
                                   outcomeText: "accepted")
            case .rejected(let why):
                return ProviderRun(key: job.key, reason: reason, charged: charged, outcome: outcome,
                                   diagnostics: diagnostics, ranAt: ranAt,
                                   next: ScheduledReload(dueAt: ranAt.addingTimeInterval(Self.retryInterval),
                                                         reason: .scheduled, deferredByBudget: false),
                                   outcomeText: "rejected: \(why)")
            }
        }
    }

    /// Stores a batch in one durable transaction, each configuration in its own savepoint, then emits its events.
    ///
    /// Off the actor: the transaction waits for the store's writer without blocking a thread
    /// (``EngineStore/writeWaiting(_:)``) and then holds one thread for its SQLite work and its `fsync`, while the
    /// actor stays free for the next batch's providers (``requestReload(ofConfigurations:reason:)``). It reads
    /// only immutable state of the engine (the store, the budget policy, the observers).
    ///
    /// A configuration whose writes fail is rolled back alone; the others are committed, and the first failure is
    /// returned for the caller to throw once its other batches are stored. The events are emitted after `COMMIT`
    /// returned, in the batch's order, before this returns.
    /// - Returns: The records of the runs stored, in order, and the first failure.
    /// - Throws: ``SQLiteError`` when the transaction itself fails (`BEGIN`, `COMMIT`): nothing of the batch is
    ///   stored and no event is emitted.
    nonisolated func commit(_ batch: ReloadBatch) async throws -> CommittedBatch {
        guard !batch.isEmpty else { return CommittedBatch() }
        let (records, deferred, failure) = try await store.writeWaiting { db in
            var records: [ReloadRecord] = []
            var deferred: [(ids: [String], reason: ReloadReason, until: Date)] = []
            var failure: (any Error)?
            for deferral in batch.deferrals {
                do {
                    let ids = try db.inSavepoint { db in
                        try store.schedule(configurationKey: deferral.key, ScheduledReload(
                            dueAt: deferral.until, reason: deferral.reason, deferredByBudget: true), db)
                        return try store.instanceIDs(configurationKey: deferral.key, db)
                    }
                    deferred.append((ids, deferral.reason, deferral.until))
                } catch {
                    failure = failure ?? error
                }
            }
            for run in batch.runs {
                do {
                    records.append(try db.inSavepoint { db in try store(run, db) })
                } catch {
                    failure = failure ?? error
                }
            }
            return (records, deferred, failure)
        }
        for deferral in deferred {
            events.emit(.reloadDeferred(instanceIDs: deferral.ids, reason: deferral.reason, until: deferral.until))
        }
        for record in records { events.emit(.providerRan(record)) }
        return CommittedBatch(records: records, failure: failure)
    }

    /// Writes one run: the timeline or refusal, the configuration's schedule and charge (one rewrite of its row),
    /// and the reload log naming the instances it served: those holding the configuration now, inside the transaction
    /// (read from the store unless none joined or left since its last logged run).
    private nonisolated func store(_ run: ProviderRun, _ db: Database) throws -> ReloadRecord {
        let served = try store.servedList(configurationKey: run.key, db)
        try store.recordProviderRun(key: run.key, outcome: run.outcome, diagnostics: run.diagnostics, next: run.next,
                                    servedDigest: served.digest, chargedAt: run.charged ? run.ranAt : nil,
                                    policy: budget, db)
        let record = ReloadRecord(configurationKey: run.key, reason: run.reason, ranAt: run.ranAt,
                                  instanceIDs: served.ids, chargedInstanceIDs: run.charged ? served.ids : [],
                                  outcome: run.outcomeText)
        try store.appendReloadLog(record, servedDigest: served.digest, db)
        return record
    }
}
