import AppIntents
import Foundation
import HostBridge
import JSON
import SharedState
import WidgetKit

/// The engine: places widgets, resolves their configurations, runs providers once per distinct configuration,
/// stores timelines and rebuilds them when their policy and budget say so.
///
/// All state is in an ``EngineStore`` (SQLite), so an engine reopened on the same store continues the same
/// schedule. Time comes from the injected ``HostClock``; with a ``VirtualClock``, ``advanceClock(to:)`` runs the
/// reloads that come due on the way, each at its own due time.
public actor WidgetEngine {
    /// The widget kinds served.
    public nonisolated let catalog: WidgetCatalog
    /// Persistent state.
    public nonisolated let store: EngineStore
    /// The engine's clock.
    public nonisolated let clock: any HostClock
    /// The reload budget, per configuration (shared by the instances holding it).
    public nonisolated let budget: ReloadBudgetPolicy
    /// The device's time zone (for providers that read ``HostEnvironment``).
    public nonisolated var timeZone: TimeZone { deviceTimeZone.zone }
    private nonisolated let deviceTimeZone: DeviceTimeZone
    /// The App Group containers user code can reach.
    public nonisolated let containers: [AppGroupContainer]
    /// The control kinds served (Control Center, Lock Screen, Action button).
    public nonisolated let controlCatalog: ControlCatalog
    /// The device's Live Activities: what ActivityKit calls in user code reach, and where pushes are applied.
    public nonisolated let activities: LiveActivities
    /// Observers of what the engine does (provider runs, budget deferrals), e.g. for metrics.
    public nonisolated let events = EngineEventObservers()
    /// How many times the catalog's `WidgetPushHandler` was called since the engine was created (tests and
    /// diagnostics; see ``WidgetCatalog/registerWidgetPushHandler(_:)``).
    public internal(set) var widgetPushHandlerCalls = 0
    /// Decoded timelines for ``shownEntry(instanceID:at:)``, valid for one store revision.
    nonisolated let timelineCache = TimelineCache()
    /// Reload batches being committed off the actor while the next batch's providers run.
    var reloadCommits = ReloadCommits()

    /// WidgetKit enforces a minimum time before a reload; WidgetHost's is 5 minutes after the last run, the
    /// spacing Apple asks for between entries. Applies to scheduled reloads only, not to explicit ones.
    public static let minimumReloadInterval: TimeInterval = 5 * 60
    /// After a provider's timeline is refused, the next attempt is scheduled this much later.
    public static let retryInterval: TimeInterval = 15 * 60
    /// How long one provider run may take (real time, not the engine's clock) before the engine stops waiting for
    /// it and records the run as refused (``providerTimeLimit``).
    public static let defaultProviderTimeLimit: Duration = .seconds(30)
    /// How long one provider run may take before it is refused: the previous timeline stays, a retry is scheduled
    /// after ``retryInterval``, and the other configurations of the same reload go on. The run's task is cancelled;
    /// a provider that blocks its thread without awaiting still holds that thread until it returns.
    public nonisolated let providerTimeLimit: Duration

    /// Creates an engine.
    /// - Parameters:
    ///   - catalog: The widget kinds to serve.
    ///   - store: Persistent state; reopening the same store continues its schedule.
    ///   - clock: The source of "now".
    ///   - budget: The reload budget, per configuration (shared by the instances holding it).
    ///   - timeZone: The device's time zone; by default the system's, looked up when a provider or intent first
    ///     needs it (the look-up loads ICU's time-zone data, several megabytes that an idle daemon does without).
    ///   - containers: App Group containers reachable through `UserDefaults(suiteName:)` and ``HostEnvironment``.
    ///   - activityRules: The device's Live Activity rules.
    ///   - controls: The control kinds to serve; none by default.
    ///   - providerTimeLimit: How long one timeline provider run may take (``defaultProviderTimeLimit``).
    public init(catalog: WidgetCatalog, store: EngineStore, clock: any HostClock = SystemClock(),
                budget: ReloadBudgetPolicy = .default, timeZone: TimeZone? = nil,
                containers: [AppGroupContainer] = [], activityRules: ActivityRules = .default,
                controls: ControlCatalog = ControlCatalog(),
                providerTimeLimit: Duration = WidgetEngine.defaultProviderTimeLimit) {
        self.catalog = catalog
        self.providerTimeLimit = providerTimeLimit
        controlCatalog = controls
        self.store = store
        self.clock = clock
        self.budget = budget
        deviceTimeZone = DeviceTimeZone(timeZone)
        self.containers = containers
        activities = LiveActivities(store: store, clock: clock, rules: activityRules, types: catalog.activityTypes)
    }


    /// Runs user code (a provider, a query) with `WidgetCenter.shared`, `ControlCenter.shared`,
    /// `UserDefaults(suiteName:)` and ``HostEnvironment/current`` bound to this engine, then applies the reload
    /// requests it made.
    ///
    /// Nonisolated: setting up reads only what never changes (the clock, the time zone, the containers, the Live
    /// Activities), so a provider run by a reload's worker task goes straight to the user code, without hopping
    /// onto the actor and off again; only requests the code made (reloads, donations, control reloads) are
    /// applied on the actor, in that order, once it has returned.
    ///
    /// `WidgetCenter` reload requests are applied after the reload batches being committed meanwhile
    /// (``requestReload(ofConfigurations:reason:)`` runs a batch's providers while the previous batch commits):
    /// such a commit writes its configurations' next reloads, and a request must not be overwritten by a commit
    /// of runs that started before it was made.
    /// - Parameter applyingControlRequests: Whether `ControlCenter` requests are applied; false while reading a
    ///   control's value, which would otherwise reload itself without end.
    nonisolated func withUserCode<T: Sendable>(applyingControlRequests: Bool = true,
                                               _ body: @Sendable () async throws -> T) async throws -> T {
        let environment = HostEnvironment(now: clock.now, timeZone: timeZone, containers: containers)
        let binding = UserCodeBinding.forEngine(containers: containers, device: environment, activities: activities,
                                                engine: self)
        let result = try await HostContext.withBinding(binding) {
            try await HostEnvironment.$current.withValue(environment) { try await body() }
        }
        let requests = UserCodeRequests(reloads: binding.reloadRequests, signals: binding.relevanceSignals.take(),
                                        controls: applyingControlRequests ? binding.controlReloadRequests : [])
        if !requests.isEmpty { try await apply(requests) }
        return result
    }

    /// Applies what user code asked for, in order: reloads (after the commits in flight), donations and relevant
    /// intents, control reloads.
    private func apply(_ requests: UserCodeRequests) async throws {
        if !requests.reloads.isEmpty {
            await settleReloadCommits()
            try scheduleRequestedReloads(requests.reloads)
        }
        try storeRelevanceSignals(requests.signals)
        if !requests.controls.isEmpty { _ = try await applyControlRequests(requests.controls) }
    }

    /// Turns reloads requested from inside user code into due reloads (budget-checked when they run).
    private func scheduleRequestedReloads(_ requests: [UserCodeBinding.ReloadRequest]) throws {
        let now = clock.now
        try store.write { db in
            for request in requests {
                switch request {
                case .kind(let kind):
                    try store.scheduleNow(configurationsWhere: "kind = ?", [.text(kind)], at: now, reason: .kindReload, db)
                case .all:
                    try store.scheduleNow(configurationsWhere: "1 = 1", [], at: now, reason: .allReload, db)
                }
            }
        }
    }

    func descriptor(kind: String) throws -> WidgetKindDescriptor {
        guard let descriptor = catalog.descriptor(kind: kind) else { throw EngineError.unknownKind(kind) }
        return descriptor
    }

    static func family(named name: String) throws -> WidgetFamily {
        guard let family = WidgetFamily(rawValue: name) else { throw EngineError.unknownFamily(name) }
        return family
    }

    /// The configuration key: kind, family and canonical resolved parameters. Exact, so equal configurations and
    /// only those share a timeline.
    static func configurationKey(kind: String, family: String, parameters: [String: JSONValue]) -> String {
        JSONValue.array([.string(kind), .string(family), .object(parameters)]).canonicalText
    }
}

/// What one run of user code asked the engine for, applied once the code has returned.
private struct UserCodeRequests: Sendable {
    var reloads: [UserCodeBinding.ReloadRequest]
    var signals: (donations: [DonationRecord], relevantIntents: [RelevantIntentRecord]?)
    var controls: [UserCodeBinding.ReloadRequest]

    var isEmpty: Bool {
        reloads.isEmpty && signals.donations.isEmpty && signals.relevantIntents == nil && controls.isEmpty
    }
}
