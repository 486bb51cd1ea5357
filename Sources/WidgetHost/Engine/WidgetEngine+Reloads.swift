import Foundation
import SharedState
import WidgetKit

extension WidgetEngine {
    /// `WidgetCenter.reloadTimelines(ofKind:)`: asks every instance of `kind` to reload, charged to each
    /// instance's budget. Instances out of budget are deferred until their window allows; their state says when.
    /// - Returns: The provider runs made now.
    @discardableResult
    public func reloadTimelines(ofKind kind: String) async throws -> [ReloadRecord] {
        _ = try descriptor(kind: kind)
        let instances = try store.read { db in try store.instanceRefs(where: "kind = ?", [.text(kind)], db) }
        return try await requestReload(of: instances, reason: .kindReload)
    }

    /// `WidgetCenter.reloadAllTimelines()`: every instance, budgeted.
    /// - Returns: The provider runs made now.
    @discardableResult
    public func reloadAllTimelines() async throws -> [ReloadRecord] {
        let instances = try store.read { db in try store.instanceRefs(where: "1 = 1", [], db) }
        return try await requestReload(of: instances, reason: .allReload)
    }

    /// Reloads one instance for a reason Apple exempts from the budget (an interactive intent on the tapped
    /// widget, the app in the foreground), or charges it for any other reason.
    /// - Returns: The provider run, or nil when it was deferred.
    @discardableResult
    public func reload(instanceID: String, reason: ReloadReason) async throws -> ReloadRecord? {
        let instance = try instance(id: instanceID)
        return try await requestReload(
            of: [EngineStore.InstanceRef(id: instance.id, configurationKey: instance.configurationKey)],
            reason: reason).first
    }

    /// Runs every reload due at or before the clock's now, earliest first, reading them from the schedule index.
    /// - Returns: The provider runs made.
    @discardableResult
    public func runDueReloads() async throws -> [ReloadRecord] {
        var records: [ReloadRecord] = []
        while true {
            let now = clock.now
            let due = try store.read { db in try store.dueReloads(through: now, limit: 256, db) }
            guard !due.isEmpty else { return records }
            // Grouped by configuration in order of each group's earliest due time.
            var order: [String] = []
            var groups: [String: [EngineStore.DueReload]] = [:]
            for reload in due {
                if groups[reload.configurationKey] == nil { order.append(reload.configurationKey) }
                groups[reload.configurationKey, default: []].append(reload)
            }
            for key in order {
                let group = groups[key] ?? []
                let refs = group.map { EngineStore.InstanceRef(id: $0.instanceID, configurationKey: key) }
                records += try await requestReload(of: refs, reason: group.first?.reload.reason ?? .scheduled)
            }
        }
    }

    /// Groups instances by configuration; runs each configuration's provider once when at least one of its
    /// instances may reload now (exempt reason, or budget left), charging those; otherwise defers them all.
    ///
    /// Instances sharing a configuration share its timeline: one that is out of budget still sees the timeline a
    /// sibling's reload built, without being charged (WidgetHost's choice; on a device each copy would rebuild
    /// separately).
    ///
    /// Group commit: configurations are taken ``reloadBatchSize`` at a time; their providers run one after the
    /// other, then everything the batch decided (timelines, refusals, schedules, charges, deferrals, the reload
    /// log) is written in one durable transaction, each configuration in its own savepoint so that it is stored
    /// whole or not at all. Records are returned, and events emitted, only after their batch's commit. A
    /// configuration whose writes fail leaves the others alone: the first such failure is thrown after the last
    /// batch.
    func requestReload(of instances: [EngineStore.InstanceRef], reason: ReloadReason) async throws
        -> [ReloadRecord] {
        var order: [String] = []
        var groups: [String: [String]] = [:]
        for instance in instances {
            if groups[instance.configurationKey] == nil { order.append(instance.configurationKey) }
            groups[instance.configurationKey, default: []].append(instance.id)
        }
        var records: [ReloadRecord] = []
        var firstFailure: (any Error)?
        for batchStart in stride(from: 0, to: order.count, by: Self.reloadBatchSize) {
            let keys = order[batchStart..<min(batchStart + Self.reloadBatchSize, order.count)]
            let now = clock.now
            // One read snapshot for the whole batch: every configuration and every budget ledger.
            let (configurations, ledgers) = try store.read { db in
                var configurations: [String: ConfigurationToRun] = [:]
                var ledgers: [String: BudgetLedger] = [:]
                for key in keys {
                    configurations[key] = try store.configurationToRun(key: key, db)
                    if reason.isBudgetExempt { continue }
                    ledgers.merge(try store.ledgers(configurationKey: key, instanceIDs: groups[key] ?? [],
                                                    policy: budget, now: now, db)) { $1 }
                }
                return (configurations, ledgers)
            }
            var batch = ReloadBatch()
            for key in keys {
                let group = groups[key] ?? []
                let allowed = group.filter { reason.isBudgetExempt || ledgers[$0]?.allowsReload == true }
                guard !allowed.isEmpty else {
                    batch.deferrals.append(ReloadBatch.Deferral(
                        instances: group.map { ($0, ledgers[$0]?.nextAllowedReload(now: now) ?? now) },
                        reason: reason, now: now))
                    continue
                }
                let charged = reason.isBudgetExempt ? [] : allowed
                // A configuration gone since the batch was read is skipped, as one gone before it.
                guard let configuration = configurations[key] else { continue }
                if var run = try await runProvider(configurationKey: key, reason: reason, charging: charged,
                                                   configuration: configuration) {
                    run.chargesEveryInstance = !charged.isEmpty && charged.count == group.count
                    batch.runs.append(run)
                }
            }
            let (committed, failure) = try commit(batch)
            records += committed
            firstFailure = firstFailure ?? failure
        }
        if let firstFailure { throw firstFailure }
        return records
    }

    /// Runs the provider for one configuration and stores the outcome at once (a batch of one): the validated
    /// timeline (or the refusal), the charges of the given instances and every instance's next reload.
    /// - Returns: The run's record, or nil when the configuration no longer exists.
    func rebuild(configurationKey key: String, reason: ReloadReason, charging charged: [String])
        async throws -> ReloadRecord? {
        guard let run = try await runProvider(configurationKey: key, reason: reason, charging: charged) else {
            return nil
        }
        let (records, failure) = try commit(ReloadBatch(runs: [run]))
        if let failure { throw failure }
        return records.first
    }

    /// The scheduled reload a timeline asks for, no sooner than the minimum interval after its run.
    static func nextReload(after timeline: StoredTimeline, ranAt: Date) -> ScheduledReload? {
        guard let requested = timeline.requestedReload else { return nil }
        let earliest = ranAt.addingTimeInterval(minimumReloadInterval)
        return ScheduledReload(dueAt: max(requested, earliest), reason: .scheduled, deferredByBudget: false)
    }
}
