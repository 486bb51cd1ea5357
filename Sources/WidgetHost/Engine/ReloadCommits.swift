/// The reload batches being committed off the engine's actor (``WidgetEngine/commit(_:)``): each commit's task, so
/// that the reload that started it can await it, and so that reload requests made by user code meanwhile can wait
/// for every commit in flight before they change a schedule (see ``WidgetEngine/withUserCode(applyingControlRequests:_:)``).
struct ReloadCommits {
    /// One commit in flight: what its reload awaits.
    struct Ticket: Sendable {
        fileprivate let id: Int
        let task: Task<CommittedBatch, any Error>
    }

    private var nextID = 0
    private var inFlight: [Int: Task<CommittedBatch, any Error>] = [:]

    /// Records a commit that has started.
    mutating func add(_ task: Task<CommittedBatch, any Error>) -> Ticket {
        nextID += 1
        inFlight[nextID] = task
        return Ticket(id: nextID, task: task)
    }

    /// Forgets a commit its reload has awaited.
    mutating func remove(_ ticket: Ticket) {
        inFlight[ticket.id] = nil
    }

    /// The commits in flight, in no particular order.
    var tasks: [Task<CommittedBatch, any Error>] { Array(inFlight.values) }
}

extension WidgetEngine {
    /// Starts committing a batch off the actor, unless it has nothing to store.
    func startCommit(_ batch: ReloadBatch) -> ReloadCommits.Ticket? {
        guard !batch.isEmpty else { return nil }
        // Detached: the commit needs neither the actor nor the caller's task-locals (no user code runs in it).
        return reloadCommits.add(Task.detached { [self] in try await commit(batch) })
    }

    /// Waits for a commit started by ``startCommit(_:)``.
    /// - Throws: What the commit threw (its transaction failed: nothing of the batch was stored).
    func finishCommit(_ ticket: ReloadCommits.Ticket) async throws -> CommittedBatch {
        defer { reloadCommits.remove(ticket) }
        return try await ticket.task.value
    }

    /// Waits until every commit in flight has ended, whatever its outcome (its reload reports that).
    func settleReloadCommits() async {
        for task in reloadCommits.tasks { _ = try? await task.value }
    }
}
