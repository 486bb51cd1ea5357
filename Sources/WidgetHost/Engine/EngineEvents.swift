import Foundation
import Synchronization

/// Something the engine did that an observer (metrics, a scheduler) may want to know about.
public enum EngineEvent: Sendable, Hashable {
    /// A provider ran for one configuration (accepted or refused: see the record's `outcome`).
    case providerRan(ReloadRecord)
    /// A budgeted reload of these instances was pushed back because their budget is spent; it runs at `until`.
    case reloadDeferred(instanceIDs: [String], reason: ReloadReason, until: Date)
}

/// The observers of one engine's ``EngineEvent``s.
///
/// Observers are called synchronously right after the change they report is committed, in commit order, on the
/// task that committed it (for reloads, a task of their own off the engine's actor, while the next batch's
/// providers run); they must be quick and must not call back into the engine (count, log, or signal a task).
public final class EngineEventObservers: Sendable {
    private let observers = Mutex<[@Sendable (EngineEvent) -> Void]>([])

    init() {}

    /// Adds an observer for the engine's lifetime.
    /// - Parameter observer: Called once per event.
    public func observe(_ observer: @escaping @Sendable (EngineEvent) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    func emit(_ event: EngineEvent) {
        let current = observers.withLock { $0 }
        for observer in current { observer(event) }
    }
}
