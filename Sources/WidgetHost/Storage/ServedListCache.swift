import Foundation
import Synchronization

/// The instance ids of interned served lists (``ReloadLogSchema``) that this process has read or written, by digest:
/// what lets a run of a configuration whose instances have not changed since its last logged run return its
/// ``ReloadRecord/instanceIDs`` without reading the instances.
///
/// Keyed by the list's digest, not by its row id: a digest names one text forever, so an entry stays true even when
/// the transaction that interned the list is rolled back, or another process writes the store. Bounded by the ids it
/// holds; when full it starts again empty (a miss costs one read of the configuration's instances, as a run did
/// before), which keeps it simple and its memory at most about ``capacity`` ids.
final class ServedListCache: Sendable {
    /// The most ids held at once (16 bytes each in an array, plus the texts of ids too long to be stored inline).
    let capacity: Int

    private struct Entries {
        var lists: [Data: [String]] = [:]
        var ids = 0
    }

    private let entries = Mutex(Entries())

    init(capacity: Int = 1_000_000) {
        self.capacity = capacity
    }

    /// The ids of the list with this digest, if held.
    func ids(digest: Data) -> [String]? {
        entries.withLock { $0.lists[digest] }
    }

    /// Holds `ids` as the list with this digest (the SHA-256 of their stored text).
    func remember(_ ids: [String], digest: Data) {
        guard ids.count <= capacity else { return }
        entries.withLock { entries in
            guard entries.lists[digest] == nil else { return }
            if entries.ids + ids.count > capacity { entries = Entries() }
            entries.lists[digest] = ids
            entries.ids += ids.count
        }
    }
}
