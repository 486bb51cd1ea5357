import Foundation
import PostgresStore

/// The outbox's PostgreSQL tables: the SQLite outbox's columns in PostgreSQL's types (`float8` seconds, `bytea`
/// payloads), and the tokens APNs answered 410 for.
extension PostgresPushOutbox {
    static var migrator: PostgresMigrator {
        var migrator = PostgresMigrator()
        migrator.registerMigration("Push.outbox.1-pushes") { db in
            try db.execute("""
                CREATE TABLE push_outbox(
                    seq int8 GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    apns_id text NOT NULL UNIQUE,
                    activity_id text NOT NULL,
                    event text NOT NULL,
                    device_token text,
                    channel_id text,
                    bundle_id text NOT NULL,
                    priority int4 NOT NULL,
                    expiration float8,
                    payload bytea NOT NULL,
                    created_at float8 NOT NULL,
                    due_at float8 NOT NULL,
                    status text NOT NULL DEFAULT 'pending',
                    attempts int4 NOT NULL DEFAULT 0,
                    last_result text,
                    updated_at float8,
                    lease_until float8,
                    retry_at float8,
                    provider_token_retries int4 NOT NULL DEFAULT 0,
                    apns_status int4,
                    push_type text NOT NULL DEFAULT 'liveactivity',
                    collapse_id text,
                    finished_at float8);
                CREATE INDEX push_outbox_pending ON push_outbox(due_at, seq) WHERE status = 'pending';
                CREATE INDEX push_outbox_by_token ON push_outbox(device_token) WHERE status = 'pending';
                CREATE TABLE push_unregistered_tokens(token text PRIMARY KEY, reason text NOT NULL, at float8 NOT NULL)
                """)
        }
        // The planner's priority-10 budget counts an activity's high-priority pushes of the last hour (as SQLite's
        // push_outbox_by_activity): without it each decision would scan the outbox, and a SERIALIZABLE planner
        // transaction would conflict with every other daemon's insert.
        migrator.registerMigration("Push.outbox.2-by-activity") { db in
            try db.execute("CREATE INDEX push_outbox_by_activity ON push_outbox(activity_id, priority, created_at)")
        }
        return migrator
    }

    /// The columns a push is read from (``PushOutbox/push(_:)`` reads them, as from SQLite's outbox).
    static let columns = """
        o.apns_id, o.activity_id, o.event, o.device_token, o.channel_id, o.bundle_id, o.priority, o.expiration,
        o.payload, o.created_at, o.due_at, o.status, o.attempts, o.last_result,
        o.apns_status, o.push_type, o.collapse_id, o.retry_at, o.finished_at, o.provider_token_retries
        """

    static let insertSQL = """
        INSERT INTO push_outbox(apns_id, activity_id, event, device_token, channel_id, bundle_id, priority, expiration,
                                payload, created_at, due_at, status, attempts, push_type, collapse_id)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'pending', 0, $12, $13)
        ON CONFLICT (apns_id) DO NOTHING
        """

    static func insertParameters(_ push: OutboxPush) -> [PostgresValue] {
        [.text(push.apnsID.uuidString), .text(push.activityID), .text(push.event.rawValue),
         .text(orNull: push.deviceToken.map(PushTokenText.hex)), .text(orNull: push.headers.channelID),
         .text(push.headers.bundleIdentifier), .integer(Int64(push.priority)),
         push.headers.expiration.map(PostgresValue.seconds) ?? .null, .bytes([UInt8](push.payload)),
         .seconds(push.createdAt), .seconds(push.dueAt), .text(push.headers.pushType.rawValue),
         .text(orNull: push.collapseID)]
    }

    static func push(_ row: PostgresRow) throws -> OutboxPush {
        try PushOutbox.push(PushSQLRow(postgres: row))
    }
}
