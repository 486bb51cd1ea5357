import Foundation
import SharedState

extension WidgetEngine {
    /// The name under which the virtual clock's time is kept in the engine store.
    static let virtualTimeSetting = "virtual-clock-now"

    /// Moves a virtual clock forward to `target`, running every reload that comes due on the way at its own due
    /// time, in time order: "move the device to tomorrow".
    /// - Returns: The provider runs made on the way.
    /// - Throws: ``ClockError/notVirtual`` when the engine runs on the wall clock.
    @discardableResult
    public func advanceClock(to target: Date) async throws -> [ReloadRecord] {
        guard let virtual = clock as? VirtualClock else { throw ClockError.notVirtual }
        var records: [ReloadRecord] = []
        while let next = try store.read({ db in try store.nextDueDate(db) }), next <= target {
            if next > virtual.now { virtual.set(to: next) }
            try activities.settle()
            records += try await runDueReloads()
        }
        if target > virtual.now { virtual.set(to: target) }
        try activities.settle()
        try saveVirtualTime()
        return records
    }

    /// Moves a virtual clock forward by `interval` seconds; see ``advanceClock(to:)``.
    @discardableResult
    public func advanceClock(by interval: TimeInterval) async throws -> [ReloadRecord] {
        guard interval >= 0, interval.isFinite else { throw ClockError.negativeInterval(interval) }
        return try await advanceClock(to: clock.now.addingTimeInterval(interval))
    }

    /// Sets a virtual clock to `date` without running reloads on the way (a user changing the device's date);
    /// due reloads run on the next ``runDueReloads()``.
    public func setClock(to date: Date) throws {
        guard let virtual = clock as? VirtualClock else { throw ClockError.notVirtual }
        virtual.set(to: date)
        try saveVirtualTime()
    }

    private func saveVirtualTime() throws {
        let text = String(clock.now.timeIntervalSince1970)
        try store.write { db in try store.setSetting(Self.virtualTimeSetting, to: text, db) }
    }

    /// The virtual time last saved in `store`, so a restarted engine resumes its virtual clock where it was.
    public nonisolated static func savedVirtualTime(in store: EngineStore) throws -> Date? {
        try store.read { db in
            try store.setting(virtualTimeSetting, db).flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        }
    }
}

/// Clock operations the engine refuses.
public enum ClockError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Setting or advancing needs a virtual clock.
    case notVirtual
    /// A clock only advances forwards.
    case negativeInterval(TimeInterval)

    /// A plain sentence.
    public var description: String {
        switch self {
        case .notVirtual: "the engine runs on the wall clock; only a virtual clock can be set or advanced"
        case .negativeInterval(let interval): "cannot advance the clock by \(interval) seconds"
        }
    }
}
