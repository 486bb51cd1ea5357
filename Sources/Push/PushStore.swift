import Foundation
import SharedState

/// The server side's durable push state: the token registry (and, as it grows, the planner's state and the outbox),
/// in one SQLite database.
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

    /// Opens the push state in `database`, applying its migrations.
    /// - Parameter now: The clock registrations and plans are dated by (the engine's, so virtual time applies).
    public init(database: DatabaseStore, now: @escaping @Sendable () -> Date) throws {
        self.database = database
        tokens = try PushTokenRegistry(database: database, now: now)
        channels = try PushChannelRegistry(database: database, now: now)
    }
}
