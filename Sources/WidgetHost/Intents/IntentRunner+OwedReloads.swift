import Foundation
import SharedState

extension IntentRunner {
    /// Runs owed entries outside any batch (at start-up, for a replay), then marks them done in a transaction of
    /// their own.
    /// - Returns: The provider runs and control reloads made.
    /// - Throws: What the reloads or the marking threw; the entries stay owed then.
    static func settle(_ owed: [OwedReloadLedger.Entry], engine: WidgetEngine, container: AppGroupContainer)
        async throws -> OwedReloadRuns {
        guard !owed.isEmpty else { return OwedReloadRuns() }
        let runs = try await reload(owed, engine: engine)
        let now = engine.clock.now
        try container.store.write { db in try OwedReloadLedger.markDone(owed.map(\.id), at: now, db) }
        return runs
    }

    /// A replay whose first perform still owes reloads: runs the entries this runner just claimed and reports the
    /// runs (or their failure) in the replayed outcome.
    func settleOwed(_ claimed: [OwedReloadLedger.Entry], replaying outcome: IntentOutcome) async
        -> IntentOutcome {
        guard !claimed.isEmpty else { return outcome }
        defer { claims.release(claimed.map(\.id)) }
        var outcome = outcome
        do {
            let runs = try await Self.settle(claimed, engine: engine, container: container)
            Self.report(runs, failure: nil, entries: claimed, in: &outcome)
        } catch {
            outcome.reloadFailure = "\(error)"
        }
        return outcome
    }

    /// Marks the owed reloads that already ran done now, in a transaction of their own, rather than in the next
    /// batch's or after ``markingDelay``; returns once they are marked (or the write failed, leaving them owed).
    ///
    /// Call it before a process that performed exits (`widgethost perform` does, the daemon does as it stops, and
    /// a harness on a directory it keeps does after each perform): entries left unmarked run again at the next
    /// start-up, which costs a provider run and, for a budgeted reload, a second charge. Performs still running are
    /// not waited for.
    public func markReloadsDone() async {
        while let marking = scheduling.withLock({ $0.ownMarking }) {
            // Its wait ends at once: it marks what it holds now.
            marking.cancel()
            await marking.value
        }
        let ids = scheduling.withLock { $0.takeReloadedOwed() }
        guard !ids.isEmpty else { return }
        await markDoneAlone(ids)
    }

    /// Keeps owed reloads that ran for the next batch to mark done.
    func markLater(_ ids: [Int64]) {
        guard !ids.isEmpty else { return }
        scheduling.withLock { $0.reloadedOwed += ids }
    }

    /// Marks the owed reloads that ran done in a transaction of their own after ``markingDelay``, unless a batch
    /// has marked them by then. Called, holding the lock, when the last batch running ended.
    func markReloadedOwedSoon(_ state: inout Scheduling) {
        guard !state.reloadedOwed.isEmpty, state.ownMarking == nil else { return }
        state.ownMarking = Task { await self.markReloadedOwedWhenIdle() }
    }

    private func markReloadedOwedWhenIdle() async {
        try? await Task.sleep(for: Self.markingDelay)
        // None while batches are running: the next one marks them, and the last one asks for another mark.
        let ids = scheduling.withLock { state -> [Int64] in
            state.isLeading ? [] : state.takeReloadedOwed()
        }
        if !ids.isEmpty { await markDoneAlone(ids) }
        // Marks again what batches that ended during the write handed over.
        scheduling.withLock { state in
            state.ownMarking = nil
            if !state.isLeading { markReloadedOwedSoon(&state) }
        }
    }

    /// Outside the lock: the commit waits for the disk, and performs must be able to queue meanwhile.
    private func markDoneAlone(_ ids: [Int64]) async {
        defer { claims.release(ids) }
        let now = engine.clock.now
        // A failure leaves them owed: the next start-up runs them again, which costs one provider run.
        _ = try? container.store.write { db in try OwedReloadLedger.markDone(ids, at: now, db) }
    }
}
