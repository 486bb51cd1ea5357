import Foundation

extension IntentRunner {
    /// Makes the reloads a committed batch owes (its performs', and its replays' still owed), then gives each of
    /// those outcomes the provider runs that served its instances.
    /// - Returns: The owed entries whose reloads ran, to be marked done; empty when the reloads failed (the entries
    ///   stay owed) or nothing was owed.
    nonisolated func reloadAfterCommit(_ results: inout [BatchResult]) async -> [OwedReloadLedger.Entry] {
        // By index: `flatMap` over the results would copy each of them, outcome and all.
        var owed: [OwedReloadLedger.Entry] = []
        owed.reserveCapacity(results.count)
        for index in results.indices { owed.append(contentsOf: results[index].owed) }
        guard !owed.isEmpty else { return [] }
        let runs: OwedReloadRuns
        var failure: String?
        do {
            runs = try await Self.reload(owed, engine: engine)
        } catch {
            runs = OwedReloadRuns()
            failure = "\(error)"
        }
        for index in results.indices where !results[index].owed.isEmpty {
            // Moved out, so the outcome is changed in place rather than copied out and back.
            switch Self.takeOut(&results[index], leaving: .failed(Self.standIn)) {
            case .performed(var outcome, let entries):
                Self.report(runs, failure: failure, entries: entries, in: &outcome)
                results[index] = .performed(consume outcome, owed: entries)
            case .replayed(var outcome, let entries):
                Self.report(runs, failure: failure, entries: entries, in: &outcome)
                results[index] = .replayed(consume outcome, owed: entries)
            case .failed(let error):
                results[index] = .failed(error)
            }
        }
        return failure == nil ? owed : []
    }

    /// What running owed entries did: the provider runs and the control reloads.
    struct OwedReloadRuns: Sendable {
        var widgets: [ReloadRecord] = []
        var controls: [ControlReload] = []
    }

    /// Runs what owed entries ask for: the tapped instances (exempt), then the requested kinds (budgeted), each
    /// configuration once; then the performed controls, then the controls `ControlCenter` requests named, each
    /// control once. A tapped instance or performed control removed since is skipped.
    /// - Returns: The provider runs and control reloads made.
    static func reload(_ owed: [OwedReloadLedger.Entry], engine: WidgetEngine) async throws -> OwedReloadRuns {
        var tapped: [String] = []
        var requests: [UserCodeBinding.ReloadRequest] = []
        var performed: [String] = []
        var controlRequests: [UserCodeBinding.ReloadRequest] = []
        for entry in owed {
            if let id = entry.instanceID, !tapped.contains(id) { tapped.append(id) }
            for request in entry.requests where !requests.contains(request) { requests.append(request) }
            if let id = entry.controlID, !performed.contains(id) { performed.append(id) }
            for request in entry.controlRequests where !controlRequests.contains(request) {
                controlRequests.append(request)
            }
        }
        var runs = OwedReloadRuns()
        if !tapped.isEmpty || !requests.isEmpty {
            runs.widgets = try await engine.runIntentReloads(tappedInstanceIDs: tapped, requests: requests)
        }
        if !performed.isEmpty || !controlRequests.isEmpty {
            runs.controls = try await engine.reloadPerformedControls(performed, requests: controlRequests)
        }
        return runs
    }

    /// Gives an outcome the runs that served it.
    static func report(_ runs: OwedReloadRuns, failure: String?, entries: [OwedReloadLedger.Entry],
                               in outcome: inout IntentOutcome) {
        outcome.reloads = records(runs.widgets, serving: outcome)
        outcome.controlReloads = controlReloads(runs.controls, serving: entries)
        outcome.reloadFailure = failure
    }

    /// The control reloads among `reloads` that the entries asked for: their performed controls, and the controls
    /// of the kinds their `ControlCenter` requests named.
    static func controlReloads(_ reloads: [ControlReload], serving entries: [OwedReloadLedger.Entry]) -> [ControlReload] {
        let performed = Set(entries.compactMap(\.controlID))
        let requests = entries.flatMap(\.controlRequests)
        let all = requests.contains(.all)
        return reloads.filter { reload in
            if reload.reason == .performed { return performed.contains(reload.instanceID) }
            return all || requests.contains(.kind(reload.kind))
        }
    }

    /// The runs among `records` that served the outcome's instances: the tapped one and those it planned to reload.
    static func records(_ records: [ReloadRecord], serving outcome: IntentOutcome) -> [ReloadRecord] {
        var served = Set(outcome.plannedReloads.map(\.instanceID))
        if let id = outcome.instanceID { served.insert(id) }
        return records.filter { !served.isDisjoint(with: $0.instanceIDs) }
    }
}
