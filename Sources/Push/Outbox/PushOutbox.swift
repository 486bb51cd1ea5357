import Foundation
import PostgresStore
import SharedState

/// The durable queue of planned pushes, in SQLite or PostgreSQL: what the planner queues (in the same transaction as its decision)
/// and what a sender (APNs, or the engine's own device) reads, delivers and marks.
///
/// A row is acknowledged only once its transaction committed, so a push the planner reported survives a crash.
public final class PushOutbox: Sendable {
    let database: PushDatabase
    private let now: @Sendable () -> Date

    /// Opens the outbox on `database`, applying its migrations.
    /// - Parameter now: The clock results are dated by.
    public convenience init(database: DatabaseStore, now: @escaping @Sendable () -> Date) throws {
        try self.init(.sqlite(database), now: now)
    }

    /// Opens the outbox in `database` (SQLite, or PostgreSQL with ``PostgresPushOutbox``'s tables), applying its
    /// migrations.
    public init(_ database: PushDatabase, now: @escaping @Sendable () -> Date) throws {
        try database.migrate(sqlite: Self.migrator, postgres: PostgresPushOutbox.migrator)
        self.database = database
        self.now = now
    }

    /// Pushes, pending first (oldest due first), then the others newest first.
    /// - Parameters:
    ///   - status: Only pushes in this status.
    ///   - activityID: Only this activity's pushes.
    ///   - limit: At most this many.
    public func pushes(status: OutboxPush.Status? = nil, activityID: String? = nil, limit: Int = 1000) throws -> [OutboxPush] {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        if let status {
            conditions.append("status = ?")
            arguments.append(.text(status.rawValue))
        }
        if let activityID {
            conditions.append("activity_id = ?")
            arguments.append(.text(activityID))
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        arguments.append(.integer(Int64(max(0, limit))))
        return try database.read { db in
            try db.query("""
                SELECT * FROM push_outbox \(filter)
                ORDER BY status <> 'pending', CASE WHEN status = 'pending' THEN due_at ELSE -due_at END, seq LIMIT ?
                """, arguments).map(Self.push)
        }
    }

    /// The pending pushes due by `date`, oldest due first.
    public func due(by date: Date, limit: Int = 1000) throws -> [OutboxPush] {
        try database.read { db in
            try db.query("SELECT * FROM push_outbox WHERE status = 'pending' AND due_at <= ? ORDER BY due_at, seq LIMIT ?",
                         [date.sqlValue, .integer(Int64(max(0, limit)))]).map(Self.push)
        }
    }

    /// The push with `apnsID`, if any.
    public func push(apnsID: UUID) throws -> OutboxPush? {
        try database.read { db in
            try db.queryOne("SELECT * FROM push_outbox WHERE apns_id = ?", [.text(apnsID.uuidString)]).map(Self.push)
        }
    }

    /// Records an attempt's result: delivered, or failed for good, or (status `pending`) to be tried again.
    /// - Throws: ``PushOutboxError/unknownPush(_:)``.
    public func mark(_ apnsID: UUID, _ status: OutboxPush.Status, result: String) throws {
        let date = now()
        try database.write { db in
            let changed = try db.execute("""
                UPDATE push_outbox SET status = ?, attempts = attempts + 1, last_result = ?, updated_at = ?,
                                       finished_at = CASE WHEN ? = 'pending' THEN NULL ELSE ? END
                WHERE apns_id = ?
                """, [.text(status.rawValue), .text(result), date.sqlValue, .text(status.rawValue), date.sqlValue,
                      .text(apnsID.uuidString)])
            guard changed == 1 else { throw PushOutboxError.unknownPush(apnsID) }
        }
    }

    /// How many pushes are in each status.
    public func counts() throws -> [OutboxPush.Status: Int] {
        try database.read { db in
            var counts: [OutboxPush.Status: Int] = [:]
            for row in try db.query("SELECT status, COUNT(*) AS n FROM push_outbox GROUP BY status") {
                if let status = row.string("status").flatMap(OutboxPush.Status.init) { counts[status] = row.int("n") ?? 0 }
            }
            return counts
        }
    }
}

/// Why the outbox refused a request. Nothing was changed.
public enum PushOutboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No push has this `apns-id`.
    case unknownPush(UUID)
    /// A push with this `apns-id` is queued already.
    case duplicateAPNsID(UUID)
    /// The push could never be sent: `field` is what is wrong.
    case invalidPush(field: String, reason: String)
    /// APNs answered 410 for the token, or the registry invalidated it.
    case deadToken(token: String, reason: String)

    public var description: String {
        switch self {
        case .unknownPush(let id): "no push in the outbox has the apns-id \(id.uuidString)"
        case .duplicateAPNsID(let id): "a push with the apns-id \(id.uuidString) is in the outbox already"
        case .invalidPush(let field, let reason): "\(field) \(reason)"
        case .deadToken(let token, let reason):
            "the device token \(token.prefix(16))… is invalidated (\(reason)); no push is sent to it"
        }
    }
}
