import Synchronization

/// The reloads planned for the performs of one batch, by what they asked for: performs of a batch asking for the
/// same reloads share one plan, read once.
///
/// A plan reads the engine's committed instances and budgets, which nothing in the batch's transaction changes (its
/// reloads run after the commit), so every perform of the batch would read the same rows, give or take a change
/// the engine commits meanwhile; sharing the first plan treats the batch's performs as planned at one instant, the
/// first's. Without it, each perform asking for a kind's reload read the engine's store on its own.
final class BatchReloadPlans: Sendable {
    private struct Request: Hashable {
        var tappedInstanceID: String?
        var reloads: [ReloadRequestLog.Request]
    }

    private let plans = Mutex<[Request: [PlannedReload]]>([:])

    /// The plan for a perform of this batch: the one made for an earlier perform that asked for the same reloads,
    /// or the one `plan` makes now.
    func plan(tappedInstanceID: String?, requests: [ReloadRequestLog.Request],
              _ plan: () throws -> [PlannedReload]) rethrows -> [PlannedReload] {
        let request = Request(tappedInstanceID: tappedInstanceID, reloads: requests)
        if let planned = plans.withLock({ $0[request] }) { return planned }
        let planned = try plan()
        plans.withLock { $0[request] = planned }
        return planned
    }
}
