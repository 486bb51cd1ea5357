import Foundation
import SharedState
import WidgetKit

extension WidgetEngine {
    /// `WidgetCenter.reloadTimelines(ofKind:)`: asks every configuration of `kind` to reload, charged to its
    /// budget, which the instances holding it share. Configurations out of budget are deferred until their window
    /// allows; their instances' state says when.
    /// - Returns: The provider runs made now.
    @discardableResult
    public func reloadTimelines(ofKind kind: String) async throws -> [ReloadRecord] {
        _ = try descriptor(kind: kind)
        let keys = try store.read { db in try store.configurationKeys(where: "kind = ?", [.text(kind)], db) }
        return try await requestReload(ofConfigurations: keys, reason: .kindReload)
    }

    /// `WidgetCenter.reloadAllTimelines()`: every configuration, budgeted.
    /// - Returns: The provider runs made now.
    @discardableResult
    public func reloadAllTimelines() async throws -> [ReloadRecord] {
        let keys = try store.read { db in try store.configurationKeys(where: "1 = 1", [], db) }
        return try await requestReload(ofConfigurations: keys, reason: .allReload)
    }

    /// Reloads one instance's configuration (so every instance sharing it) for a reason Apple exempts from the
    /// budget (an interactive intent on the tapped widget, the app in the foreground), or charges the
    /// configuration's budget for any other reason.
    /// - Returns: The provider run, or nil when it was deferred.
    @discardableResult
    public func reload(instanceID: String, reason: ReloadReason) async throws -> ReloadRecord? {
        let instance = try instance(id: instanceID)
        return try await requestReload(ofConfigurations: [instance.configurationKey], reason: reason).first
    }

    /// Runs every reload due at or before the clock's now, earliest first, reading them from the schedule index.
    /// - Returns: The provider runs made.
    @discardableResult
    public func runDueReloads() async throws -> [ReloadRecord] {
        var records: [ReloadRecord] = []
        while true {
            let now = clock.now
            let due = try store.read { db in try store.dueConfigurations(through: now, limit: 256, db) }
            guard !due.isEmpty else { return records }
            // In due order; neighbours due for the same reason go through one group commit.
            var start = due.startIndex
            while start < due.endIndex {
                let reason = due[start].reload.reason
                let end = due[start...].firstIndex { $0.reload.reason != reason } ?? due.endIndex
                records += try await requestReload(ofConfigurations: due[start..<end].map(\.key), reason: reason)
                start = end
            }
        }
    }

    /// Runs each configuration's provider once when it may reload now (an exempt reason, or budget left in its
    /// ledger), charging its budget unless the reason is exempt; otherwise defers it until its budget allows.
    ///
    /// A configuration's instances share its timeline, its schedule and its budget: a run serves every instance
    /// holding the configuration when it is stored (one placed while the provider ran included), and a charge
    /// counts against all of them. That is WidgetHost's choice (on a device each copy of a widget would rebuild
    /// and be charged separately); it keeps a rebuild's writes to one row per configuration.
    ///
    /// Group commit: configurations are taken ``reloadBatchSize`` at a time; their providers run one after the
    /// other, then everything the batch decided (timelines, refusals, schedules, charges, deferrals, the reload
    /// log) is written in one durable transaction, each configuration in its own savepoint so that it is stored
    /// whole or not at all. Records are returned, and events emitted, only after their batch's commit, batch after
    /// batch in the order asked. A configuration whose writes fail leaves the others alone: the first such failure
    /// is thrown after the last batch.
    ///
    /// Pipelining: a batch's commit runs off the actor (``commit(_:)``) while the next batch is read and its
    /// providers run, so user code overlaps the commit's SQLite work and `fsync` on another core; the next commit
    /// starts only once the previous one has returned, so batches are stored, and their events emitted, in order.
    /// When a commit itself fails (`BEGIN` or `COMMIT`: nothing of its batch stored), the batch computed meanwhile
    /// is dropped unstored and the error thrown, as if the reload had stopped at the failed batch; a batch that
    /// cannot be prepared (a read fails, a kind the catalog lost) is thrown after the commit in flight has ended.
    ///
    /// Reading batch N + 1 (its configurations to run and their budget ledgers) before batch N has committed sees
    /// the same rows as reading it after: the keys are made distinct above, so batch N writes none of the rows batch
    /// N + 1 reads (its configurations' schedule, charges, timeline, diagnostics; the reload log is not read).
    /// Every caller gets that from here: `reloadAllTimelines()` and `reloadTimelines(ofKind:)` pass each
    /// configuration key once, `runDueReloads()` and an intent's reloads call this once per group of keys and await
    /// it (all its commits included) before the next call, and one instance's reload is a single batch. Reload
    /// requests that user code makes during the overlap are applied only after the commits in flight
    /// (``withUserCode(applyingControlRequests:_:)``), as they were when commits blocked the actor.
    func requestReload(ofConfigurations requested: [String], reason: ReloadReason) async throws -> [ReloadRecord] {
        var seen = Set<String>()
        let order = requested.filter { seen.insert($0).inserted }
        var records: [ReloadRecord] = []
        var firstFailure: (any Error)?
        var inFlight: ReloadCommits.Ticket?
        for batchStart in stride(from: 0, to: order.count, by: Self.reloadBatchSize) {
            let keys = order[batchStart..<min(batchStart + Self.reloadBatchSize, order.count)]
            let batch: ReloadBatch
            do {
                batch = try await prepareBatch(keys, reason: reason)
            } catch {
                // Nothing is left running: the commit in flight ends first, and its own failure comes first.
                if let inFlight { _ = try await finishCommit(inFlight) }
                throw error
            }
            if let inFlight { try await finishCommit(inFlight, into: &records, firstFailure: &firstFailure) }
            inFlight = startCommit(batch)
        }
        if let inFlight { try await finishCommit(inFlight, into: &records, firstFailure: &firstFailure) }
        if let firstFailure { throw firstFailure }
        return records
    }

    /// Waits for a batch's commit and adds its records, and its failure if it is the first, to the reload's.
    private func finishCommit(_ ticket: ReloadCommits.Ticket, into records: inout [ReloadRecord],
                              firstFailure: inout (any Error)?) async throws {
        let committed = try await finishCommit(ticket)
        records += committed.records
        firstFailure = firstFailure ?? committed.failure
    }

    /// Reads a batch's configurations and budget ledgers in one snapshot, defers those out of budget and runs the
    /// providers of the others.
    private func prepareBatch(_ keys: ArraySlice<String>, reason: ReloadReason) async throws -> ReloadBatch {
        let now = clock.now
        let read = try store.read { db in
            try store.batchToRun(keys: keys, ledgerPolicy: reason.isBudgetExempt ? nil : budget, now: now, db)
        }
        var batch = ReloadBatch()
        var toRun: [(key: String, configuration: ConfigurationToRun)] = []
        for key in keys {
            // A configuration gone since the request (its last instance removed) is skipped.
            guard let configuration = read.configurations[key] else { continue }
            if let ledger = read.ledgers[key], !ledger.allowsReload {
                batch.deferrals.append(ReloadBatch.Deferral(key: key, reason: reason,
                                                            until: ledger.nextAllowedReload(now: now)))
                continue
            }
            toRun.append((key, configuration))
        }
        batch.runs = try await runProviders(toRun, reason: reason, charged: !reason.isBudgetExempt)
        return batch
    }

    /// Runs the provider for one configuration and stores the outcome at once (a batch of one), uncharged: the
    /// validated timeline (or the refusal) and the configuration's next reload.
    /// - Returns: The run's record, or nil when the configuration no longer exists.
    func rebuild(configurationKey key: String, reason: ReloadReason) async throws -> ReloadRecord? {
        guard let configuration = try store.read({ db in try store.configurationToRun(key: key, db) }) else {
            return nil
        }
        let runs = try await runProviders([(key, configuration)], reason: reason, charged: false)
        guard let ticket = startCommit(ReloadBatch(runs: runs)) else { return nil }
        let committed = try await finishCommit(ticket)
        if let failure = committed.failure { throw failure }
        return committed.records.first
    }

    /// The scheduled reload a timeline asks for, no sooner than the minimum interval after its run.
    static func nextReload(after timeline: StoredTimeline, ranAt: Date) -> ScheduledReload? {
        guard let requested = timeline.requestedReload else { return nil }
        let earliest = ranAt.addingTimeInterval(minimumReloadInterval)
        return ScheduledReload(dueAt: max(requested, earliest), reason: .scheduled, deferredByBudget: false)
    }
}
