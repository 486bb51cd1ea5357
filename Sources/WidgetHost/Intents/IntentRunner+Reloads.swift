import Foundation

extension IntentRunner {
    /// Makes the reloads a committed batch owes (its performs', and its replays' still owed), then gives each of
    /// those outcomes the provider runs that served its instances.
    /// - Returns: The owed entries whose reloads ran, to be marked done; empty when the reloads failed (the entries
    ///   stay owed) or nothing was owed.
    nonisolated func reloadAfterCommit(_ results: inout [BatchResult]) async -> [OwedReloadLedger.Entry] {
        let owed = results.flatMap(\.owed)
        guard !owed.isEmpty else { return [] }
        let records: [ReloadRecord]
        var failure: String?
        do {
            records = try await Self.reload(owed, engine: engine)
        } catch {
            records = []
            failure = "\(error)"
        }
        for index in results.indices {
            switch results[index] {
            case .performed(var outcome, let entries) where !entries.isEmpty:
                outcome.reloads = Self.records(records, serving: outcome)
                outcome.reloadFailure = failure
                results[index] = .performed(outcome, owed: entries)
            case .replayed(var outcome, let entries) where !entries.isEmpty:
                outcome.reloads = Self.records(records, serving: outcome)
                outcome.reloadFailure = failure
                results[index] = .replayed(outcome, owed: entries)
            default:
                continue
            }
        }
        return failure == nil ? owed : []
    }

    /// Runs what owed entries ask for: the tapped instances (exempt), then the requested kinds (budgeted), each
    /// configuration once. A tapped instance removed since is skipped.
    /// - Returns: The provider runs made.
    static func reload(_ owed: [OwedReloadLedger.Entry], engine: WidgetEngine) async throws -> [ReloadRecord] {
        var tapped: [String] = []
        var requests: [UserCodeBinding.ReloadRequest] = []
        for entry in owed {
            if let id = entry.instanceID, !tapped.contains(id) { tapped.append(id) }
            for request in entry.requests where !requests.contains(request) { requests.append(request) }
        }
        return try await engine.runIntentReloads(tappedInstanceIDs: tapped, requests: requests)
    }

    /// The runs among `records` that served the outcome's instances: the tapped one and those it planned to reload.
    static func records(_ records: [ReloadRecord], serving outcome: IntentOutcome) -> [ReloadRecord] {
        var served = Set(outcome.plannedReloads.map(\.instanceID))
        if let id = outcome.instanceID { served.insert(id) }
        return records.filter { !served.isDisjoint(with: $0.instanceIDs) }
    }
}
