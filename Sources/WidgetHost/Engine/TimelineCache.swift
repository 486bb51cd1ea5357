import Synchronization

/// Decoded timelines of the stored configurations, and which configuration each instance shows, kept in memory
/// so that asking which entry an instance shows at T needs neither a SQLite read nor JSON decoding.
///
/// Everything in it was read under one ``EngineStore/revision``; the first look-up under a later revision (any
/// write transaction on the engine's database, whoever makes it: a place, update, remove, provider run, clock
/// change, reload scheduling, a tap) empties it. A value read under an older revision than the cache's is dropped,
/// never stored, so the cache can only ever answer what a fresh read would. Absent instances are not cached.
final class TimelineCache: Sendable {
    /// What an instance shows: its kind (for error messages) and its configuration's timeline.
    struct Placement: Sendable {
        var kind: String
        var configurationKey: String
    }

    /// A decoded timeline and the id it got when it was read.
    struct Timeline: Sendable {
        var id: UInt64
        var timeline: StoredTimeline
    }

    private struct Contents {
        var revision: UInt64 = 0
        var placements: [String: Placement] = [:]
        /// nil values: the configuration has no accepted timeline yet.
        var timelines: [String: Timeline?] = [:]

        /// Empties the contents if they belong to an older revision than `revision`; false if `revision` is the
        /// older one (a value read then must not be stored).
        mutating func moveTo(_ revision: UInt64) -> Bool {
            if revision < self.revision { return false }
            if revision > self.revision {
                self.revision = revision
                placements.removeAll(keepingCapacity: true)
                timelines.removeAll(keepingCapacity: true)
            }
            return true
        }
    }

    private let contents = Mutex(Contents())
    private let lastTimelineID = Atomic<UInt64>(0)

    init() {}

    /// A new ``Timeline/id``, never given before in this process.
    func nextTimelineID() -> UInt64 {
        lastTimelineID.add(1, ordering: .relaxed).newValue
    }

    /// The cached placement and timeline of `instanceID` under `revision`, or nil when not cached.
    func lookUp(instanceID: String, revision: UInt64) -> (Placement, Timeline?)? {
        contents.withLock { contents in
            guard contents.moveTo(revision), let placement = contents.placements[instanceID],
                  let timeline = contents.timelines[placement.configurationKey] else { return nil }
            return (placement, timeline)
        }
    }

    /// Keeps what was read under `revision`, unless the cache already moved past it.
    func store(instanceID: String, _ placement: Placement, timeline: Timeline?, revision: UInt64) {
        contents.withLock { contents in
            guard contents.moveTo(revision) else { return }
            contents.placements[instanceID] = placement
            contents.timelines[placement.configurationKey] = .some(timeline)
        }
    }

    /// The number of configurations whose timeline is cached (for tests).
    var cachedConfigurationCount: Int { contents.withLock { $0.timelines.count } }
}
