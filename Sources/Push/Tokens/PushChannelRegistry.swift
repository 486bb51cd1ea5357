import Foundation
import PostgresStore
import SharedState

/// The broadcast channels a host service created with APNs (for `PushType.channel(_:)` activities), durable.
///
/// A channel is open until closed (APNs deletes it, or the host stops using it); a closed channel is kept, with when
/// and why, and is never opened again under the same id. Registering an open channel again with the same type changes
/// nothing. Every method is one transaction.
public final class PushChannelRegistry: Sendable {
    private let database: PushDatabase
    private let now: @Sendable () -> Date

    /// Opens the registry on `database`, applying its migrations.
    public convenience init(database: DatabaseStore, now: @escaping @Sendable () -> Date) throws {
        try self.init(.sqlite(database), now: now)
    }

    /// Opens the registry in a PostgreSQL database several daemons share, applying its migrations.
    /// - Throws: ``PostgresError`` (`.unavailable` when the server cannot be reached).
    public convenience init(pool: PostgresPool, now: @escaping @Sendable () -> Date) throws {
        try self.init(.postgres(pool), now: now)
    }

    /// Opens the registry in `database` (SQLite or PostgreSQL), applying its migrations.
    public init(_ database: PushDatabase, now: @escaping @Sendable () -> Date) throws {
        try database.migrate(sqlite: Self.migrator, postgres: PushPostgresSchema.channels)
        self.database = database
        self.now = now
    }

    /// Registers an open channel.
    /// - Returns: `true` when it was new, `false` when it was registered already (nothing changed).
    /// - Throws: ``PushTokenError/invalidIdentifier(field:value:)``; ``PushChannelError`` when the channel was closed,
    ///   or is registered for another attributes type.
    @discardableResult
    public func register(_ id: String, attributesType: String) throws -> Bool {
        try PushTokenRegistry.check("channel id", id)
        try PushTokenRegistry.check("attributes type", attributesType)
        let date = now()
        return try database.write { db in
            if let existing = try db.queryOne("SELECT * FROM push_channels WHERE id = ?", [.text(id)]) {
                let channel = Self.channel(existing)
                if channel.closedAt != nil { throw PushChannelError.closed(id, reason: channel.closeReason ?? "") }
                guard channel.attributesType == attributesType else {
                    throw PushChannelError.otherType(id, registered: channel.attributesType)
                }
                return false
            }
            try db.execute("INSERT INTO push_channels(id, attributes_type, registered_at) VALUES (?, ?, ?)",
                           [.text(id), .text(attributesType), date.sqlValue])
            return true
        }
    }

    /// Closes a channel; closing it again keeps the first reason.
    /// - Throws: ``PushChannelError/unknown(_:)``.
    public func close(_ id: String, reason: String) throws {
        let date = now()
        try database.write { db in
            guard try db.queryOne("SELECT 1 FROM push_channels WHERE id = ?", [.text(id)]) != nil else {
                throw PushChannelError.unknown(id)
            }
            try db.execute("UPDATE push_channels SET closed_at = ?, close_reason = ? WHERE id = ? AND closed_at IS NULL",
                           [date.sqlValue, .text(reason), .text(id)])
        }
    }

    /// The channel, open or closed, if registered.
    public func channel(_ id: String) throws -> PushChannel? {
        try database.read { db in try db.queryOne("SELECT * FROM push_channels WHERE id = ?", [.text(id)]).map(Self.channel) }
    }

    /// Every channel, oldest first; only the open ones unless `includingClosed`.
    public func channels(includingClosed: Bool = false) throws -> [PushChannel] {
        try database.read { db in
            try db.query("""
                SELECT * FROM push_channels \(includingClosed ? "" : "WHERE closed_at IS NULL") ORDER BY registered_at, id
                """).map(Self.channel)
        }
    }

    static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration("Push.channels.1-registry") { db in
            try db.execute("""
                CREATE TABLE push_channels(
                    id TEXT PRIMARY KEY NOT NULL,
                    attributes_type TEXT NOT NULL,
                    registered_at REAL NOT NULL,
                    closed_at REAL,
                    close_reason TEXT)
                """)
        }
        return migrator
    }

    private static func channel(_ row: PushSQLRow) -> PushChannel {
        PushChannel(id: row.string("id") ?? "", attributesType: row.string("attributes_type") ?? "",
                    registeredAt: row.date("registered_at") ?? .distantPast, closedAt: row.date("closed_at"),
                    closeReason: row.string("close_reason"))
    }
}

/// A broadcast channel.
public struct PushChannel: Sendable, Hashable {
    /// The channel's id, as APNs created it.
    public var id: String
    /// The attributes type of the activities it updates.
    public var attributesType: String
    /// When it was registered.
    public var registeredAt: Date
    /// When it was closed, if it was.
    public var closedAt: Date?
    /// Why it was closed.
    public var closeReason: String?
}

/// Why the channel registry refused a request. Nothing changed.
public enum PushChannelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The channel was closed; its id is not used again.
    case closed(String, reason: String)
    /// The channel is registered for another attributes type.
    case otherType(String, registered: String)
    /// No channel has this id.
    case unknown(String)

    public var description: String {
        switch self {
        case .closed(let id, let reason): "the channel '\(id)' was closed (\(reason)); its id is not used again"
        case .otherType(let id, let registered): "the channel '\(id)' is registered for \(registered)"
        case .unknown(let id): "no channel is registered as '\(id)'"
        }
    }
}
