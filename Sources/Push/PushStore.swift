import Foundation
import PostgresStore
import SharedState

/// The server side's durable push state: the token registry, the update planner and its outbox, in one database.
///
/// On SQLite (one daemon) the daemon keeps it in the engine's database (`widgethost.sqlite`), in tables of its own;
/// nothing in it reads the engine's tables. On PostgreSQL (`--push-store postgres://…`, Docs/postgres.md) the same
/// tables live in one database several daemons share: the planner's decision and the push it queues are still
/// committed in one transaction, the outbox is drained by every daemon's sender under leases
/// (``PostgresPushOutbox``), and a 410 a sender records invalidates the token in the shared registry.
public final class PushStore: Sendable {
    /// Where the store's tables are.
    public let storage: PushDatabase
    /// The push tokens apps reported.
    public let tokens: PushTokenRegistry
    /// The broadcast channels the host created.
    public let channels: PushChannelRegistry
    /// The update planner: state changes in, decisions and queued pushes out.
    public let planner: PushPlanner
    /// The planned pushes, waiting to be sent.
    public var outbox: PushOutbox { planner.outbox }
    /// The sender's side of the outbox on PostgreSQL (nil on SQLite, where the store itself is the queue).
    let sharedOutbox: PostgresPushOutbox?

    /// Opens the push state in `database`, applying its migrations.
    /// - Parameters:
    ///   - now: The clock registrations and plans are dated by (the engine's, so virtual time applies).
    ///   - bundleIdentifier: The app's bundle identifier, which the planner's pushes are addressed to.
    public convenience init(database: DatabaseStore, bundleIdentifier: String = PushStore.defaultBundleIdentifier,
                            now: @escaping @Sendable () -> Date) throws {
        try self.init(.sqlite(database), bundleIdentifier: bundleIdentifier, now: now)
    }

    /// Opens the push state in a PostgreSQL database several daemons share, applying its migrations.
    /// - Throws: ``PostgresError`` (`.unavailable` when the server cannot be reached).
    public convenience init(pool: PostgresPool, bundleIdentifier: String = PushStore.defaultBundleIdentifier,
                            now: @escaping @Sendable () -> Date) throws {
        try self.init(.postgres(pool), bundleIdentifier: bundleIdentifier, now: now)
    }

    /// Opens the push state in `storage` (SQLite or PostgreSQL), applying its migrations.
    public init(_ storage: PushDatabase, bundleIdentifier: String = PushStore.defaultBundleIdentifier,
                now: @escaping @Sendable () -> Date) throws {
        self.storage = storage
        tokens = try PushTokenRegistry(storage, now: now)
        channels = try PushChannelRegistry(storage, now: now)
        planner = try PushPlanner(storage, bundleIdentifier: bundleIdentifier, now: now)
        switch storage {
        case .sqlite: sharedOutbox = nil
        case .postgres(let pool): sharedOutbox = try PostgresPushOutbox(pool: pool, hasRegistry: true)
        }
    }

    /// The SQLite database the store is in; nil on PostgreSQL.
    public var database: DatabaseStore? {
        if case .sqlite(let database) = storage { return database }
        return nil
    }

    /// Whether several daemons may share the store (PostgreSQL): then a sender starting must not end other senders'
    /// leases (``releaseLeases()``).
    public var isShared: Bool { sharedOutbox != nil }

    /// The bundle identifier used when the host names none.
    public static let defaultBundleIdentifier = "com.example.widgethost"
}
