import Foundation
import SharedState
import WidgetKit

/// What one batch of a reload decided, waiting for its commit.
struct ReloadBatch {
    /// Instances that may not reload now, with when each may.
    struct Deferral {
        var instances: [(id: String, until: Date)]
        var reason: ReloadReason
        var now: Date
    }

    var runs: [ProviderRun] = []
    var deferrals: [Deferral] = []
}

/// One configuration's provider run, done: what to store for it.
struct ProviderRun {
    var key: String
    var reason: ReloadReason
    var charged: [String]
    /// True when `charged` was every instance of the configuration when the batch was read.
    var chargesEveryInstance = false
    var outcome: ProviderRunOutcome
    var diagnostics: [TimelineDiagnostic]
    var ranAt: Date
    var next: ScheduledReload?
    var outcomeText: String
}

/// The instances of a configuration changed while its provider ran (the fast path of ``WidgetEngine`` gives way).
private struct ChargedSetChanged: Error {}

extension WidgetEngine {
    /// How many configurations one durable transaction of a reload stores (group commit).
    public static let reloadBatchSize = 128

    /// Runs the provider of one configuration within ``providerTimeLimit`` and validates what it returned.
    /// - Parameter configuration: The configuration as read (a batch reads all of its own in one snapshot); nil:
    ///   read it now.
    /// - Returns: What to store, or nil when the configuration no longer exists.
    func runProvider(configurationKey key: String, reason: ReloadReason, charging charged: [String],
                     configuration known: ConfigurationToRun? = nil) async throws -> ProviderRun? {
        guard let configuration = try known ?? store.read({ db in try store.configurationToRun(key: key, db) })
        else { return nil }
        let descriptor = try descriptor(kind: configuration.kind)
        let family = try Self.family(named: configuration.family)
        let context = TimelineProviderContext(family: family, isPreview: false,
                                              displaySize: family.typicalDisplaySize)
        let outcome: ProviderRunOutcome
        var diagnostics = configuration.resolutionDiagnostics
        do {
            let produced = try await ProviderDeadline.run(limit: providerTimeLimit) {
                try await self.withUserCode {
                    try await descriptor.source.timeline(configuration.parameters, kind: configuration.kind,
                                                         context: context)
                }
            }
            diagnostics = produced.diagnostics
            outcome = .accepted(try TimelineValidator.validate(entries: produced.entries, policy: produced.policy,
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
            return ProviderRun(key: key, reason: reason, charged: charged, outcome: outcome, diagnostics: diagnostics,
                               ranAt: ranAt, next: Self.nextReload(after: validated.timeline, ranAt: ranAt),
                               outcomeText: "accepted")
        case .rejected(let why):
            return ProviderRun(key: key, reason: reason, charged: charged, outcome: outcome, diagnostics: diagnostics,
                               ranAt: ranAt,
                               next: ScheduledReload(dueAt: ranAt.addingTimeInterval(Self.retryInterval),
                                                     reason: .scheduled, deferredByBudget: false),
                               outcomeText: "rejected: \(why)")
        }
    }

    /// Stores a batch in one durable transaction, each configuration in its own savepoint, then emits its events.
    ///
    /// A configuration whose writes fail is rolled back alone; the others are committed, and the first failure is
    /// returned for the caller to throw once its other batches are stored.
    /// - Returns: The records of the runs stored, in order, and the first failure.
    func commit(_ batch: ReloadBatch) throws -> (records: [ReloadRecord], failure: (any Error)?) {
        guard !batch.runs.isEmpty || !batch.deferrals.isEmpty else { return ([], nil) }
        let (records, deferred, failure) = try store.write { db in
            var records: [ReloadRecord] = []
            var deferred: [(ids: [String], reason: ReloadReason, until: Date)] = []
            var failure: (any Error)?
            for deferral in batch.deferrals {
                do {
                    try db.inSavepoint { db in
                        for (id, until) in deferral.instances {
                            try store.schedule(instanceID: id, ScheduledReload(
                                dueAt: until, reason: deferral.reason, deferredByBudget: true), db)
                        }
                    }
                    let until = deferral.instances.map(\.until).max().map { max($0, deferral.now) } ?? deferral.now
                    deferred.append((deferral.instances.map(\.id), deferral.reason, until))
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
        return (records, failure)
    }

    /// Writes one run: the timeline or refusal, every instance's schedule, the charges and the reload log.
    private func store(_ run: ProviderRun, _ db: Database) throws -> ReloadRecord {
        try store.recordProviderRun(key: run.key, outcome: run.outcome, diagnostics: run.diagnostics, db)
        if run.chargesEveryInstance, let served = try? db.inSavepoint({ db in
            // Each instance's row rewritten once; an instance placed while the provider ran must not be charged, so
            // a different set of instances undoes this and takes the general path.
            let served = try store.scheduleAndChargeAll(configurationKey: run.key, run.next, at: run.ranAt,
                                                        policy: budget, db)
            guard served.count == run.charged.count, Set(served) == Set(run.charged) else {
                throw ChargedSetChanged()
            }
            return served
        }) {
            return try log(run, served: served, db)
        }
        let served = try store.schedule(configurationKey: run.key, run.next, db)
        if run.charged.count == served.count, Set(run.charged) == Set(served) {
            try store.chargeAll(configurationKey: run.key, at: run.ranAt, policy: budget, db)
        } else {
            for id in run.charged { try store.charge(instanceID: id, at: run.ranAt, policy: budget, db) }
        }
        return try log(run, served: served, db)
    }

    private func log(_ run: ProviderRun, served: [String], _ db: Database) throws -> ReloadRecord {
        let record = ReloadRecord(configurationKey: run.key, reason: run.reason, ranAt: run.ranAt,
                                  instanceIDs: served, chargedInstanceIDs: run.charged, outcome: run.outcomeText)
        try store.appendReloadLog(record, db)
        return record
    }
}
