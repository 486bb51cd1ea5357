import APNs
import DeepLinks
import Foundation
import HTTPServer
import Push
import SharedState
import WidgetHost

/// The `widgethost serve` daemon, without its command line: the `/v1` API over an engine on an ``HTTPServer``,
/// the interactive intents and the tap log, the engine metrics, the reload scheduler (on the system clock), and an
/// orderly stop.
///
/// ```swift
/// let intents = try IntentRunner(engine: engine, intents: catalogOfIntents, container: container)
/// let daemon = try WidgetHostDaemon(engine: engine, routes: RouteTableHolder(table), intents: intents,
///                                   checkpointing: [engine.store.database, container.store])
/// print("listening on \(daemon.server.address.baseURL)")
/// ...
/// await daemon.stop()   // in-flight requests finish, the scheduler stops, the WAL files are checkpointed
/// ```
public final class WidgetHostDaemon: Sendable {
    /// The HTTP server (its address has the real port when port 0 was asked for).
    public let server: HTTPServer
    /// What the handlers work with.
    public let context: APIContext
    /// The reload scheduler, or nil on a virtual clock.
    public let scheduler: ReloadScheduler?
    /// The APNs sender draining the outbox, when APNs settings were given.
    public var apns: APNsSender? { context.apns }

    /// Where and as whom the daemon sends the outbox's pushes to APNs.
    public struct APNsSettings: Sendable {
        /// The team's provider token.
        public var providerToken: ProviderToken
        /// The endpoint, connections, CA file and pacing.
        public var sender: APNsSender.Configuration
        /// The app's bundle identifier (`apns-topic` without its push-type suffix).
        public var topic: String

        /// Creates settings.
        public init(providerToken: ProviderToken, sender: APNsSender.Configuration, topic: String) {
            self.providerToken = providerToken
            self.sender = sender
            self.topic = topic
        }
    }

    /// Starts serving at once.
    ///
    /// - Parameters:
    ///   - engine: The engine to serve.
    ///   - routes: The deep-link route table (taps are routed through it too).
    ///   - intents: The interactive intents `POST /v1/intents/{name}/perform` runs (over `engine`), or nil for none.
    ///   - stores: Databases to checkpoint (`wal_checkpoint(TRUNCATE)`) once the server has stopped: the engine's
    ///     and the App Group containers'.
    ///   - configuration: Address, token, threads, body cap (the daemon documents
    ///     ``WidgetHostAPI/maximumBodySize``, the configuration's default), log. Its metrics registry also gets
    ///     the engine metrics; its `onStop` hook, if any, runs after the daemon's own stop work.
    ///   - apns: Where to send the outbox's pushes; without it they wait in the outbox (as before there was a
    ///     sender). The sender starts with the server (taking back what a previous run left in flight) and stops
    ///     before the databases are checkpointed.
    /// - Throws: ``ServerError`` when the server cannot start; a store error when the push tables cannot be opened;
    ///   ``HTTP2ClientError`` for a bad APNs endpoint.
    ///   - taps: A shared tap log (`--analytics`, ``PostgresTapLog``) instead of the engine store's.
    ///   - pushStorage: A shared push store (`--push-store`, PostgreSQL) instead of the engine's database; its
    ///     sender then leaves the leases of the other daemons' senders alone when it starts.
    public init(engine: WidgetEngine, routes: RouteTableHolder, intents: IntentRunner? = nil,
                checkpointing stores: [DatabaseStore],
                configuration: HTTPServer.Configuration = HTTPServer.Configuration(),
                apns: APNsSettings? = nil, taps: (any TapLog)? = nil, pushStorage: PushDatabase? = nil) throws {
        let log = configuration.log
        let scheduler = engine.clock is VirtualClock ? nil : ReloadScheduler(engine: engine, log: log)
        let metrics = EngineMetrics(registry: configuration.metrics)
        metrics.observe(engine)
        var context = try APIContext(engine: engine, routes: routes, intents: intents, metrics: metrics,
                                     scheduleChanged: { scheduler?.scheduleChanged() }, log: log,
                                     bundleIdentifier: apns?.topic, taps: taps, pushStorage: pushStorage)
        scheduler?.attach(context.push.planner)
        if let apns {
            let clock = engine.clock
            var sender = apns.sender
            // Several daemons' senders drain a shared outbox: a starting one must not take the others' claims.
            if context.push.isShared { sender.releasesLeasesOnStart = false }
            context.apns = try APNsSender(
                store: context.push, providerToken: apns.providerToken, configuration: sender,
                metrics: APNsMetrics(sink: APNsRegistryMetrics(registry: configuration.metrics)),
                dueClock: { clock.now })
        }
        let sender = context.apns
        var configuration = configuration
        let previousOnStop = configuration.onStop
        configuration.onStop = {
            await scheduler?.stop()
            // Answers in flight are recorded; what stays unanswered is sent again at the next start.
            await Task.detached { sender?.stop() }.value
            // Otherwise the last performs' reloads would run again at the next start.
            await intents?.markReloadsDone()
            for store in stores {
                do {
                    let result = try store.checkpoint()
                    log.log(.info, "checkpointed", [
                        "database": .string(store.path), "complete": .string(String(result.isComplete)),
                        "frames": .int(result.checkpointedFrames),
                    ])
                } catch {
                    log.log(.error, "checkpoint failed", [
                        "database": .string(store.path), "error": .string(String(describing: error)),
                    ])
                }
            }
            await previousOnStop?()
        }
        server = try HTTPServer(configuration: configuration, router: WidgetHostAPI.router(context: context))
        self.context = context
        self.scheduler = scheduler
        // Reloads scheduled are all in the engine store, so what came due while the daemon was down runs now.
        scheduler?.start()
        try sender?.start()
        if let intents { Self.logStartUpReloads(of: intents, log: log, scheduler: scheduler) }
    }

    /// Logs the reloads the runner found owed by performs of the previous run (stopped between a commit and its
    /// reloads) and ran as it started; the scheduler looks again, as those may have deferred budgeted reloads.
    private static func logStartUpReloads(of intents: IntentRunner, log: ServerLog, scheduler: ReloadScheduler?) {
        Task {
            do {
                let records = try await intents.startUpReloads()
                guard !records.isEmpty else { return }
                log.log(.info, "owed reloads ran", ["count": .int(records.count)])
                scheduler?.scheduleChanged()
            } catch {
                log.log(.error, "owed reloads failed", ["error": .string(String(describing: error))])
            }
        }
    }

    /// Reloads the route tables from the directory the route holder was made from (`widgethost serve` does on
    /// `SIGHUP`), as `POST /v1/routes/reload` does, and logs the outcome. A table with load or lint errors is refused
    /// and the one in use stays.
    /// - Parameter trigger: What asked for the reload, for the log line (`SIGHUP`, `api`).
    /// - Throws: ``RouteReloadRefusal`` when the holder has no directory or the files have errors.
    @discardableResult
    public func reloadRoutes(trigger: String) throws(RouteReloadRefusal) -> RouteTableHolder.Snapshot {
        try context.reloadRoutes(trigger: trigger)
    }

    /// Stops gracefully: stops accepting, lets in-flight requests finish (up to `gracePeriod`), stops the
    /// scheduler, marks the reloads the last performs owed done, checkpoints the databases. See
    /// ``HTTPServer/stop(gracePeriod:)``.
    public func stop(gracePeriod: Duration = .seconds(10)) async {
        await server.stop(gracePeriod: gracePeriod)
    }
}
