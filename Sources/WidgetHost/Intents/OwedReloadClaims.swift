import Synchronization

/// The owed reloads one runner is settling: committed and not yet marked done, their reloads about to run,
/// running, or ran.
///
/// A replay that finds its first perform's reloads still owed in the container runs them, unless the runner already
/// claimed them: they are a batch's own reloads (running, or ran and waiting to be marked done in the next
/// transaction), or another replay's. Entries whose reloads failed are released, so a later replay runs them.
final class OwedReloadClaims: Sendable {
    private let claimed = Mutex<Set<Int64>>([])

    /// Claims the entries no one has claimed yet.
    /// - Returns: Those newly claimed, in order; the caller runs them and releases them once marked done (or failed).
    func claim(_ entries: [OwedReloadLedger.Entry]) -> [OwedReloadLedger.Entry] {
        guard !entries.isEmpty else { return [] }
        return claimed.withLock { claimed in entries.filter { claimed.insert($0.id).inserted } }
    }

    /// Gives entries up: they were marked done, or their reloads failed and are owed again.
    func release(_ ids: some Sequence<Int64>) {
        claimed.withLock { claimed in
            for id in ids { claimed.remove(id) }
        }
    }
}
