import ActivityKit
import Foundation
import JSON
import SharedState
import Synchronization

/// The engine's Live Activities: the device side of ActivityKit, on the engine's clock, kept in its store.
///
/// App code reaches it through `Activity.request`, `update` and `end` (the engine's binding is an `ActivityHost`);
/// the API reaches it with JSON; APNs pushes reach it through ``deliver(_:)``, applied exactly as a device applies
/// them, with every push it ignores recorded with the reason. The rules are ``ActivityRules``:
///
/// - A request starts the activity at once (`.active`), or at its start date (`.pending` until then).
/// - It is active for at most 8 hours, then the system ends it; ended, it stays on the Lock Screen until its
///   dismissal (the `.default` policy: 4 hours; `.immediate`: at once; `.after(date)`: then, capped at 4 hours) and
///   never beyond 12 hours after its start.
/// - Content whose stale date has passed makes it `.stale`, until content with a later (or no) stale date arrives.
///   An ended activity does not go stale.
/// - An update (the app's or a push's) whose time is not later than the last one applied is ignored, and so is
///   any update to an activity that has ended. The app's own updates without a timestamp take the clock's time and
///   are never ignored for their time.
/// - Tokens: an activity requested with `.token` has an update token, each attributes type a push-to-start token
///   (issued when the app first asks for it); both rotate on ``ActivityRules/tokenRotationInterval`` and on demand,
///   and every replaced token is kept, so that a push to it is recorded as `replaced_token`.
///
/// Time-driven changes (a start, the 8-hour end, staleness, dismissal, rotation) are applied by ``settle()`` at the
/// moment each came due, in time order; every operation settles first, the engine's ``WidgetEngine/advanceClock(to:)``
/// settles on the way, and the daemon settles at ``nextTransitionDate()``.
///
/// Every change is one transaction; changes are serialized, and streams (`pushTokenUpdates`,
/// `activityStateUpdates`, …) are fed after the commit, in the order of the commits.
public final class LiveActivities: Sendable {
    /// The device's rules.
    public let rules: ActivityRules
    let store: EngineStore
    let clock: any HostClock
    let observers = ActivityObservers()
    /// The known attributes types, by name: the catalog's, and those app code requested since the engine started.
    /// The lock also serializes every change.
    let serialized: Mutex<[String: ActivityAttributesType]>

    init(store: EngineStore, clock: any HostClock, rules: ActivityRules, types: [ActivityAttributesType]) {
        self.store = store
        self.clock = clock
        self.rules = rules
        serialized = Mutex(Dictionary(types.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Runs one change: settles due transitions first, then `body`, in one write transaction; feeds the streams
    /// the notices collected once it has committed.
    func change<T: Sendable>(_ body: (inout ActivityChange) throws -> T) throws -> T {
        try serialized.withLock { types in
            var notices: [ActivityNotice] = []
            let result = try store.write { db in
                var change = ActivityChange(db: db, store: store, now: clock.now, rules: rules, types: types)
                try change.settle()
                let result = try body(&change)
                try change.reschedule()
                types = change.types
                notices = change.notices
                return result
            }
            observers.deliver(notices)
            return result
        }
    }

    /// Runs a read. When a transition is due it runs as a change (settling first, so the read sees it); otherwise
    /// on a read snapshot, without taking the writer: app code reads `activity.content` and `activityState` often,
    /// and a write transaction for each would queue reads behind pushes and commits for nothing.
    func read<T: Sendable>(_ body: (ActivityChange) throws -> T) throws -> T {
        let now = clock.now
        if try store.read({ db in try ActivityChange.hasDueTransition(by: now, db) }) {
            return try change { change in try body(change) }
        }
        let types = serialized.withLock { $0 }
        return try store.read { db in
            try body(ActivityChange(db: db, store: store, now: now, rules: rules, types: types))
        }
    }

    // MARK: Reading

    /// The activity with `id`, as it is now.
    /// - Throws: ``ActivityError/unknownActivity(_:)``.
    public func activity(id: String) throws -> ActivityRecord {
        try read { change in try change.record(id: id) }
    }

    /// Activities, newest first, optionally of one attributes type and in some states.
    public func activities(attributesType: String? = nil, states: Set<ActivityState>? = nil) throws -> [ActivityRecord] {
        try read { change in
            try change.records(where: attributesType == nil ? "1 = 1" : "attributes_type = ?",
                               attributesType.map { [.text($0)] } ?? [])
                .filter { states?.contains($0.state) ?? true }
                .reversed()
        }
    }

    /// The activity's history, oldest first.
    /// - Throws: ``ActivityError/unknownActivity(_:)``.
    public func history(activityID: String) throws -> [ActivityEvent] {
        try read { change in
            _ = try change.record(id: activityID)
            return try change.events(where: "activity_id = ?", [.text(activityID)])
        }
    }

    /// Pushes that reached no activity (an unknown token or channel), oldest first.
    public func unaddressedPushes() throws -> [ActivityEvent] {
        try read { change in try change.events(where: "activity_id IS NULL", []) }
    }

    /// What the Lock Screen showed of the activity at `date`.
    /// - Throws: ``ActivityError/unknownActivity(_:)``; ``ActivityError/futureTime(_:)`` for a date after the
    ///   clock's now (the future is not known yet: a push may still come).
    public func screen(activityID: String, at date: Date) throws -> ActivityScreen {
        try read { change in
            guard date <= change.now else { throw ActivityError.futureTime(date) }
            _ = try change.record(id: activityID)
            let events = try change.events(where: "activity_id = ? AND at <= ?", [.text(activityID), date.sqlValue])
            return ActivityScreen(activityID: activityID, at: date, events: events)
        }
    }

    /// The registered attributes types with their current push-to-start tokens.
    public func attributesTypes() throws -> [ActivityTypeTokens] {
        try read { change in
            try change.types.keys.sorted().map { name in
                ActivityTypeTokens(name: name, pushToStartToken: try change.currentToken(attributesType: name))
            }
        }
    }

    /// The user's switches now.
    public var authorization: ActivityAuthorization {
        (try? store.read { db in try Self.authorization(store, db) })
            ?? ActivityAuthorization(activitiesEnabled: true, frequentPushesEnabled: false)
    }

    /// Sets the user's switches; streams see the change.
    public func setAuthorization(_ authorization: ActivityAuthorization) throws {
        try change { change in
            try store.setSetting(Self.activitiesEnabledSetting, to: authorization.activitiesEnabled ? "1" : "0", change.db)
            try store.setSetting(Self.frequentPushesSetting, to: authorization.frequentPushesEnabled ? "1" : "0",
                                 change.db)
            change.notify(.authorization(authorization))
        }
    }

    static let activitiesEnabledSetting = "activities-enabled"
    static let frequentPushesSetting = "activities-frequent-pushes-enabled"

    /// Live Activities are on and frequent pushes off until the switches are set, as on a new device.
    static func authorization(_ store: EngineStore, _ db: Database) throws -> ActivityAuthorization {
        ActivityAuthorization(activitiesEnabled: try store.setting(activitiesEnabledSetting, db) != "0",
                              frequentPushesEnabled: try store.setting(frequentPushesSetting, db) == "1")
    }
}

/// An attributes type and its push-to-start token.
public struct ActivityTypeTokens: Sendable, Hashable {
    /// The type's name (`attributes-type`).
    public var name: String
    /// Its current push-to-start token, once one was issued.
    public var pushToStartToken: Data?
}
