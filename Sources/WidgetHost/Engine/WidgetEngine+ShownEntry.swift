import Foundation

/// The entry an instance shows at some instant, as ``WidgetEngine/shownEntry(instanceID:at:)`` answers it.
public struct ShownEntry: Sendable {
    /// The entry.
    public var entry: EntrySnapshot
    /// The instant it was evaluated at.
    public var at: Date
    /// Its position in its timeline.
    public var index: Int
    /// Identifies the decoded timeline the entry comes from, unique for the process's lifetime: two answers with the
    /// same `timelineID` and `index` carry the same entry, so a caller may keep what it derives from one (its JSON).
    public var timelineID: UInt64

    /// Creates an answer (the engine does; tests of what derives from one may too).
    public init(entry: EntrySnapshot, at: Date, index: Int, timelineID: UInt64) {
        self.entry = entry
        self.at = at
        self.index = index
        self.timelineID = timelineID
    }
}

extension WidgetEngine {
    /// The entry the instance shows at `time` (default: the clock's now), answered from memory when its
    /// configuration's timeline was already read under the store's current revision; callable from any thread
    /// without waiting for the engine.
    ///
    /// It answers exactly what ``entry(instanceID:at:)`` answers: any write to the engine's store (a reload, an
    /// update, a removal, a clock change) makes the next call read the store again.
    /// - Throws: ``EngineError/unknownInstance(_:)``, or ``EngineError/timelineRejected(kind:reason:)`` when no
    ///   timeline was ever accepted.
    public nonisolated func shownEntry(instanceID: String, at time: Date? = nil) throws -> ShownEntry {
        let now = time ?? clock.now
        let revision = store.revision
        let placement: TimelineCache.Placement
        let cached: TimelineCache.Timeline?
        if let hit = timelineCache.lookUp(instanceID: instanceID, revision: revision) {
            (placement, cached) = hit
        } else {
            (placement, cached) = try store.read { db in
                guard let instance = try store.instance(id: instanceID, db) else {
                    throw EngineError.unknownInstance(instanceID)
                }
                guard let configuration = try store.configuration(key: instance.configurationKey, db) else {
                    throw EngineError.corruptRow(column: "configuration_key", detail: "no configuration for \(instanceID)")
                }
                return (TimelineCache.Placement(kind: instance.kind, configurationKey: instance.configurationKey),
                        configuration.timeline.map { TimelineCache.Timeline(id: timelineCache.nextTimelineID(), timeline: $0) })
            }
            timelineCache.store(instanceID: instanceID, placement, timeline: cached, revision: revision)
        }
        guard let cached else {
            throw EngineError.timelineRejected(kind: placement.kind, reason: "no timeline has been accepted yet")
        }
        let shown = cached.timeline.entry(at: now)
        return ShownEntry(entry: shown.entry, at: now, index: shown.index, timelineID: cached.id)
    }
}
