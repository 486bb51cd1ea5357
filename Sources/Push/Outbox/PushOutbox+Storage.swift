import Foundation
import SharedState

/// The outbox's table: one row per planned push, keyed by its `apns-id`; `seq` keeps the order pushes were queued
/// in, which is each activity's timestamp order.
extension PushOutbox {
    static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration("Push.outbox.1-pushes") { db in
            try db.execute("""
                CREATE TABLE push_outbox(
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    apns_id TEXT NOT NULL UNIQUE,
                    activity_id TEXT NOT NULL,
                    event TEXT NOT NULL,
                    device_token TEXT,
                    channel_id TEXT,
                    bundle_id TEXT NOT NULL,
                    priority INTEGER NOT NULL,
                    expiration REAL,
                    payload BLOB NOT NULL,
                    created_at REAL NOT NULL,
                    due_at REAL NOT NULL,
                    status TEXT NOT NULL DEFAULT 'pending',
                    attempts INTEGER NOT NULL DEFAULT 0,
                    last_result TEXT,
                    updated_at REAL)
                """)
            try db.execute("CREATE INDEX push_outbox_pending ON push_outbox(status, due_at)")
            // The priority-10 budget counts an activity's high-priority pushes in the last hour.
            try db.execute("CREATE INDEX push_outbox_by_activity ON push_outbox(activity_id, priority, created_at)")
        }
        // Delivery to APNs: a lease while a sender has a push in flight, when a retry may go, APNs's answer, the
        // push type and collapse id of a caller's own push, and the tokens APNs answered 410 for.
        migrator.registerMigration("Push.outbox.2-delivery") { db in
            for column in ["lease_until REAL", "retry_at REAL", "provider_token_retries INTEGER NOT NULL DEFAULT 0",
                           "apns_status INTEGER", "push_type TEXT NOT NULL DEFAULT 'liveactivity'", "collapse_id TEXT",
                           "finished_at REAL"] {
                try db.execute("ALTER TABLE push_outbox ADD COLUMN \(column)")
            }
            try db.execute("CREATE INDEX push_outbox_by_token ON push_outbox(device_token) WHERE status = 'pending'")
            try db.execute("""
                CREATE TABLE push_unregistered_tokens(token TEXT PRIMARY KEY NOT NULL, reason TEXT NOT NULL,
                                                      at REAL NOT NULL)
                """)
        }
        return migrator
    }

    /// Queues `push` inside the caller's transaction (the planner's, with its decision).
    /// - Returns: 1, or 0 when a push with its `apns-id` is queued already (nothing changed then).
    @discardableResult
    static func insert(_ push: OutboxPush, _ db: PushSQLConnection) throws -> Int {
        try db.execute("""
            INSERT INTO push_outbox(apns_id, activity_id, event, device_token, channel_id, bundle_id, priority,
                                    expiration, payload, created_at, due_at, status, attempts, push_type, collapse_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)
            ON CONFLICT(apns_id) DO NOTHING
            """, [.text(push.apnsID.uuidString), .text(push.activityID), .text(push.event.rawValue),
                  push.deviceToken.map { .text(PushTokenText.hex($0)) } ?? .null, push.headers.channelID.sqlValue,
                  .text(push.headers.bundleIdentifier), .integer(Int64(push.priority)),
                  push.headers.expiration.sqlValue, .blob(push.payload), push.createdAt.sqlValue,
                  push.dueAt.sqlValue, .text(push.status.rawValue), .text(push.headers.pushType.rawValue),
                  push.collapseID.sqlValue])
    }

    /// How many priority-10 pushes `activityID` was planned since `date`.
    static func highPriorityCount(activityID: String, since date: Date, _ db: PushSQLConnection) throws -> Int {
        try db.queryOne("""
            SELECT COUNT(*) AS n FROM push_outbox WHERE activity_id = ? AND priority = 10 AND created_at > ?
            """, [.text(activityID), date.sqlValue])?.int("n") ?? 0
    }

    /// The oldest priority-10 push of `activityID` since `date`: the budget frees an hour after it.
    static func oldestHighPriority(activityID: String, since date: Date, _ db: PushSQLConnection) throws -> Date? {
        try db.queryOne("""
            SELECT MIN(created_at) AS oldest FROM push_outbox WHERE activity_id = ? AND priority = 10 AND created_at > ?
            """, [.text(activityID), date.sqlValue])?.date("oldest")
    }

    static func push(_ row: PushSQLRow) throws -> OutboxPush {
        guard let id = row.string("apns_id").flatMap(UUID.init(uuidString:)),
              let event = row.string("event").flatMap(LiveActivityEvent.init(rawValue:)),
              let status = row.string("status").flatMap(OutboxPush.Status.init(rawValue:)),
              let priority = row.int("priority").flatMap(PushHeaders.Priority.init(rawValue:)),
              let pushType = row.string("push_type").flatMap(PushHeaders.PushType.init(rawValue:)),
              let createdAt = row.date("created_at"), let dueAt = row.date("due_at") else {
            throw PushStoreError.corruptRow("push_outbox")
        }
        let headers = PushHeaders(pushType: pushType, bundleIdentifier: row.string("bundle_id") ?? "",
                                  priority: priority, expiration: row.date("expiration"),
                                  channelID: row.string("channel_id"))
        return OutboxPush(
            apnsID: id, activityID: row.string("activity_id") ?? "", event: event,
            deviceToken: row.string("device_token").flatMap(PushTokenText.token), headers: headers,
            payload: row.data("payload") ?? Data(), createdAt: createdAt, dueAt: dueAt, status: status,
            attempts: row.int("attempts") ?? 0,
            lastResult: row.string("last_result"), apnsStatus: row.int("apns_status"),
            collapseID: row.string("collapse_id"), nextAttemptAt: row.date("retry_at"),
            finishedAt: row.date("finished_at"), providerTokenRetries: row.int("provider_token_retries") ?? 0)
    }
}
