import Foundation

extension WidgetEngine {
    /// The entry the instance shows at `time` (default: the clock's now), answered from memory when its
    /// configuration's timeline was already read under the store's current revision; callable from any thread
    /// without waiting for the engine.
    ///
    /// It answers exactly what ``entry(instanceID:at:)`` answers: any write to the engine's store (a reload, an
    /// update, a removal, a clock change) makes the next call read the store again.
    /// - Returns: The entry and the instant it was evaluated at.
    /// - Throws: ``EngineError/unknownInstance(_:)``, or ``EngineError/timelineRejected(kind:reason:)`` when no
    ///   timeline was ever accepted.
    public nonisolated func shownEntry(instanceID: String, at time: Date? = nil) throws -> (entry: EntrySnapshot, at: Date) {
        let now = time ?? clock.now
        let revision = store.revision
        let placement: TimelineCache.Placement
        let timeline: StoredTimeline?
        if let cached = timelineCache.lookUp(instanceID: instanceID, revision: revision) {
            (placement, timeline) = cached
        } else {
            (placement, timeline) = try store.read { db in
                guard let instance = try store.instance(id: instanceID, db) else {
                    throw EngineError.unknownInstance(instanceID)
                }
                guard let configuration = try store.configuration(key: instance.configurationKey, db) else {
                    throw EngineError.corruptRow(column: "configuration_key", detail: "no configuration for \(instanceID)")
                }
                return (TimelineCache.Placement(kind: instance.kind, configurationKey: instance.configurationKey),
                        configuration.timeline)
            }
            timelineCache.store(instanceID: instanceID, placement, timeline: timeline, revision: revision)
        }
        guard let timeline else {
            throw EngineError.timelineRejected(kind: placement.kind, reason: "no timeline has been accepted yet")
        }
        return (timeline.entry(at: now).entry, now)
    }
}
