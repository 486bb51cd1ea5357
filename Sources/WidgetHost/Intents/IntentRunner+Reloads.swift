import Foundation

extension IntentRunner {
    /// Makes the reloads of a committed batch: the tapped instances (exempt), then the requested kinds (budgeted),
    /// each configuration once; then gives each perform the provider runs that served its instances.
    nonisolated func reloadAfterCommit(_ results: inout [BatchResult]) async {
        var tapped: [String] = []
        var requests: [EngineBinding.ReloadRequest] = []
        for case .performed(let outcome, let asked) in results where !outcome.isDryRun {
            if let id = outcome.instanceID, !tapped.contains(id) { tapped.append(id) }
            for request in asked where !requests.contains(request) { requests.append(request) }
        }
        guard !tapped.isEmpty || !requests.isEmpty else { return }
        let records: [ReloadRecord]
        var failure: String?
        do {
            records = try await engine.runIntentReloads(tappedInstanceIDs: tapped, requests: requests)
        } catch {
            records = []
            failure = "\(error)"
        }
        for index in results.indices {
            guard case .performed(var outcome, let asked) = results[index], !outcome.isDryRun else { continue }
            var served = Set(outcome.plannedReloads.map(\.instanceID))
            if let id = outcome.instanceID { served.insert(id) }
            outcome.reloads = records.filter { !served.isDisjoint(with: $0.instanceIDs) }
            outcome.reloadFailure = failure
            results[index] = .performed(outcome, requests: asked)
        }
    }
}
