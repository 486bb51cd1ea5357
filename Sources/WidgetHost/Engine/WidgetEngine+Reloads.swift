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
    func requestReload(of instances: [EngineStore.InstanceRef], reason: ReloadReason) async throws
        -> [ReloadRecord] {
        var records: [ReloadRecord] = []
        var order: [String] = []
        var groups: [String: [String]] = [:]
        for instance in instances {
            if groups[instance.configurationKey] == nil { order.append(instance.configurationKey) }
            groups[instance.configurationKey, default: []].append(instance.id)
        }
        for key in order {
            let group = groups[key] ?? []
            let now = clock.now
            let ledgers = reason.isBudgetExempt ? [:] : try store.read { db in
                try store.ledgers(configurationKey: key, instanceIDs: group, policy: budget, now: now, db)
            }
            let allowed = group.filter { reason.isBudgetExempt || ledgers[$0]?.allowsReload == true }
            guard !allowed.isEmpty else {
                let until = try store.write { db -> Date in
                    var latest = now
                    for id in group {
                        let due = ledgers[id]?.nextAllowedReload(now: now) ?? now
                        latest = max(latest, due)
                        try store.schedule(instanceID: id, ScheduledReload(
                            dueAt: due, reason: reason, deferredByBudget: true), db)
                    }
                    return latest
                }
                events.emit(.reloadDeferred(instanceIDs: group, reason: reason, until: until))
                continue
            }
            let charged = reason.isBudgetExempt ? [] : allowed
            if let record = try await rebuild(configurationKey: key, reason: reason, charging: charged) {
                records.append(record)
            }
        }
        return records
    }

    /// Runs the provider for one configuration, stores the validated timeline (or the refusal), charges the
    /// given instances and reschedules every instance of the configuration.
    /// - Returns: The run's record, or nil when the configuration no longer exists.
    func rebuild(configurationKey key: String, reason: ReloadReason, charging charged: [String])
        async throws -> ReloadRecord? {
        guard let configuration = try store.read({ db in try store.configuration(key: key, db) }) else { return nil }
        let descriptor = try descriptor(kind: configuration.kind)
        let family = try Self.family(named: configuration.family)
        let context = TimelineProviderContext(family: family, isPreview: false,
                                              displaySize: family.typicalDisplaySize)
        let outcome: ProviderRunOutcome
        var diagnostics = configuration.resolutionDiagnostics
        do {
            let produced = try await withUserCode {
                try await descriptor.source.timeline(configuration.parameters, kind: configuration.kind,
                                                     context: context)
            }
            diagnostics = produced.diagnostics
            outcome = .accepted(try TimelineValidator.validate(entries: produced.entries, policy: produced.policy,
                                                               generatedAt: clock.now))
        } catch let rejection as TimelineValidator.Rejection {
            outcome = .rejected(rejection.description)
        } catch {
            // A resolution error or an entity query that threw: the previous timeline stays and a retry is
            // scheduled, so one bad configuration cannot stall the scheduler.
            outcome = .rejected("\(error)")
        }
        let ranAt = clock.now
        let next: ScheduledReload?
        let outcomeText: String
        switch outcome {
        case .accepted(let validated):
            next = Self.nextReload(after: validated.timeline, ranAt: ranAt)
            outcomeText = "accepted"
        case .rejected(let reason):
            next = ScheduledReload(dueAt: ranAt.addingTimeInterval(Self.retryInterval), reason: .scheduled,
                                   deferredByBudget: false)
            outcomeText = "rejected: \(reason)"
        }
        let record = try store.write { db in
            try store.recordProviderRun(key: key, outcome: outcome, diagnostics: diagnostics, db)
            let served = try store.schedule(configurationKey: key, next, db)
            if charged.count == served.count, Set(charged) == Set(served) {
                try store.chargeAll(configurationKey: key, at: ranAt, policy: budget, db)
            } else {
                for id in charged { try store.charge(instanceID: id, at: ranAt, policy: budget, db) }
            }
            let record = ReloadRecord(configurationKey: key, reason: reason, ranAt: ranAt,
                                      instanceIDs: served, chargedInstanceIDs: charged,
                                      outcome: outcomeText)
            try store.appendReloadLog(record, db)
            return record
        }
        events.emit(.providerRan(record))
        return record
    }

    /// The scheduled reload a timeline asks for, no sooner than the minimum interval after its run.
    static func nextReload(after timeline: StoredTimeline, ranAt: Date) -> ScheduledReload? {
        guard let requested = timeline.requestedReload else { return nil }
        let earliest = ranAt.addingTimeInterval(minimumReloadInterval)
        return ScheduledReload(dueAt: max(requested, earliest), reason: .scheduled, deferredByBudget: false)
    }
}
