import Foundation
import SharedState

/// The server side's durable push state: the token registry, the update planner and its outbox, in one SQLite
/// database.
///
/// The daemon keeps it in the engine's database (`widgethost.sqlite`), in tables of its own; nothing in it reads the
/// engine's tables, so it can move to a database of its own (or a shared server) without changing its callers.
public final class PushStore: Sendable {
    /// The database.
    public let database: DatabaseStore
    /// The push tokens apps reported.
    public let tokens: PushTokenRegistry
    /// The broadcast channels the host created.
    public let channels: PushChannelRegistry
    /// The update planner: state changes in, decisions and queued pushes out.
    public let planner: PushPlanner
    /// The planned pushes, waiting to be sent.
    public var outbox: PushOutbox { planner.outbox }

    /// Opens the push state in `database`, applying its migrations.
    /// - Parameters:
    ///   - now: The clock registrations and plans are dated by (the engine's, so virtual time applies).
    ///   - bundleIdentifier: The app's bundle identifier, which the planner's pushes are addressed to.
    public init(database: DatabaseStore, bundleIdentifier: String = PushStore.defaultBundleIdentifier,
                now: @escaping @Sendable () -> Date) throws {
        self.database = database
        tokens = try PushTokenRegistry(database: database, now: now)
        channels = try PushChannelRegistry(database: database, now: now)
        planner = try PushPlanner(database: database, bundleIdentifier: bundleIdentifier, now: now)
    }

    /// The bundle identifier used when the host names none.
    public static let defaultBundleIdentifier = "com.example.widgethost"
}
