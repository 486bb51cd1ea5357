import Foundation
import SharedState

extension WidgetEngine {
    /// The reloads an interactive intent causes: the tapped instance (exempt), then every other instance of the
    /// kinds it asked for (budgeted; deferred when the budget is spent). Instances sharing the tapped instance's
    /// configuration are left out: its reload rebuilds their timeline too.
    nonisolated func planIntentReloads(tappedInstanceID: String?, requests: [UserCodeBinding.ReloadRequest])
        throws -> [PlannedReload] {
        guard tappedInstanceID != nil || !requests.isEmpty else { return [] }
        let now = clock.now
        return try store.read { db in
            var planned: [PlannedReload] = []
            var seen = Set<String>()
            var tappedConfiguration: String?
            if let id = tappedInstanceID, let instance = try store.instance(id: id, db) {
                planned.append(PlannedReload(instanceID: id, kind: instance.kind, reason: .interactiveIntent,
                                             deferredByBudget: false))
                seen.insert(id)
                tappedConfiguration = instance.configurationKey
            }
            for request in requests {
                let (instances, reason) = try Self.instances(for: request, store: store, db)
                for instance in instances where instance.configurationKey != tappedConfiguration {
                    guard seen.insert(instance.id).inserted else { continue }
                    let ledger = try store.ledger(configurationKey: instance.configurationKey, policy: budget,
                                                  now: now, db)
                    planned.append(PlannedReload(instanceID: instance.id, kind: instance.kind, reason: reason,
                                                 deferredByBudget: !ledger.allowsReload))
                }
            }
            return planned
        }
    }

    /// Reloads after committed interactive intents: each tapped instance at once and budget-exempt, then the
    /// instances of the requested kinds, budgeted, each configuration once.
    /// - Returns: The provider runs made.
    func runIntentReloads(tappedInstanceIDs: [String], requests: [UserCodeBinding.ReloadRequest])
        async throws -> [ReloadRecord] {
        var records: [ReloadRecord] = []
        for id in tappedInstanceIDs {
            // The widget may have been removed since the tap; its perform stands.
            guard (try? instance(id: id)) != nil else { continue }
            if let record = try await reload(instanceID: id, reason: .interactiveIntent) { records.append(record) }
        }
        let rebuilt = Set(records.map(\.configurationKey))
        for request in requests {
            let (instances, reason) = try store.read { db in try Self.instances(for: request, store: store, db) }
            let pending = instances.filter { !rebuilt.contains($0.configurationKey) && !tappedInstanceIDs.contains($0.id) }
            guard !pending.isEmpty else { continue }
            let done = Set(records.map(\.configurationKey))
            let keys = pending.map(\.configurationKey).filter { !done.contains($0) }
            records += try await requestReload(ofConfigurations: keys, reason: reason)
        }
        return records
    }

    private static func instances(for request: UserCodeBinding.ReloadRequest, store: EngineStore, _ db: Database)
        throws -> ([WidgetInstance], ReloadReason) {
        switch request {
        case .kind(let kind): (try store.instances(ofKind: kind, db), .kindReload)
        case .all: (try store.instances(ofKind: nil, db), .allReload)
        }
    }
}
