import DeepLinks
import Foundation
import HTTPServer
import APNs
import Push
import WidgetHost

/// What the API's handlers work with: the engine, the deep-link route table, the interactive-intent runner, the
/// tap log, the engine metrics, and the hook that tells the reload scheduler the schedule may have changed.
public struct APIContext: Sendable {
    /// The engine every widget endpoint calls.
    public let engine: WidgetEngine
    /// The deep-link route table (swapped atomically on reload).
    public let routes: RouteTableHolder
    /// Performs interactive intents; nil when the daemon serves none (then `/v1/intents` is empty).
    public let intents: IntentRunner?
    /// The tap log, routing taps through ``routes``: the engine store's (``TapStore``) unless the daemon was given
    /// a shared one (``PostgresTapLog``, `--analytics`).
    public let taps: any TapLog
    /// The server side of pushes (in the engine's database, in tables of its own, unless the daemon was given a
    /// shared PostgreSQL push store, `--push-store`): the token registry, the planner and its outbox.
    public let push: PushStore
    /// The APNs sender draining ``push``'s outbox, when the daemon was given APNs credentials; queuing a push wakes
    /// it.
    public var apns: APNsSender?
    /// Engine counters shown at `/metrics`.
    public let metrics: EngineMetrics
    /// Called after every successful mutating request.
    public let scheduleChanged: @Sendable () -> Void
    /// Where route-table reloads are logged.
    public let log: ServerLog

    /// Creates a context.
    /// - Parameters:
    ///   - engine: The engine.
    ///   - routes: The deep-link route table.
    ///   - intents: The interactive-intent runner (over the same engine), or nil.
    ///   - metrics: The engine metrics (already observing `engine`).
    ///   - scheduleChanged: Called after every successful mutating request; a no-op by default.
    ///   - log: Where route-table reloads are logged (the server's log).
    ///   - bundleIdentifier: The app's bundle identifier pushes are addressed to (`--apns-topic`); the engine's device
    ///     rules' when nil.
    ///   - taps: The tap log to use instead of the engine store's (it must route through `routes`).
    ///   - pushStorage: Where the push store's tables are instead of the engine's database (a shared PostgreSQL
    ///     database, `--push-store`).
    /// - Throws: What opening the push store's tables throws.
    public init(engine: WidgetEngine, routes: RouteTableHolder, intents: IntentRunner? = nil, metrics: EngineMetrics,
                scheduleChanged: @escaping @Sendable () -> Void = {}, log: ServerLog = ServerLog(),
                bundleIdentifier: String? = nil, taps: (any TapLog)? = nil, pushStorage: PushDatabase? = nil) throws {
        self.engine = engine
        self.routes = routes
        self.intents = intents
        self.taps = taps ?? TapStore(engineStore: engine.store, routes: routes)
        let clock = engine.clock
        push = try PushStore(pushStorage ?? .sqlite(engine.store.database),
                             bundleIdentifier: bundleIdentifier ?? engine.activities.rules.bundleIdentifier
                                 ?? PushStore.defaultBundleIdentifier,
                             now: { clock.now })
        self.metrics = metrics
        self.scheduleChanged = scheduleChanged
        self.log = log
    }

    /// Whether the engine runs on a virtual clock (which the API may set and advance).
    public var isVirtualClock: Bool { engine.clock is VirtualClock }
}
