import Foundation
import PostgresStore

/// The token registry's, the channel registry's and the planner's tables in PostgreSQL: the SQLite tables' columns in
/// PostgreSQL's types (`float8` seconds, `int8` integers and flags), under the same migration names. `seq` stands for
/// SQLite's `rowid` where an order of insertion breaks ties. Text that results are ordered by is `COLLATE "C"`
/// (byte order, as SQLite's `BINARY`), so listings come in the same order whatever the database's collation.
enum PushPostgresSchema {
    static var tokens: PostgresMigrator {
        var migrator = PostgresMigrator()
        migrator.registerMigration("Push.tokens.1-registry") { db in
            try db.execute("""
                CREATE TABLE push_tokens(
                    seq int8 GENERATED ALWAYS AS IDENTITY UNIQUE,
                    token text PRIMARY KEY,
                    kind text COLLATE "C" NOT NULL,
                    slot_key text NOT NULL,
                    device text,
                    attributes_type text,
                    widget_kinds text NOT NULL DEFAULT '[]',
                    registered_at float8 NOT NULL,
                    replaced_at float8,
                    invalidated_at float8,
                    invalid_reason text);
                CREATE INDEX push_tokens_by_slot ON push_tokens(kind, slot_key, registered_at);
                CREATE INDEX push_tokens_by_device ON push_tokens(device) WHERE device IS NOT NULL
                """)
        }
        return migrator
    }

    static var channels: PostgresMigrator {
        var migrator = PostgresMigrator()
        migrator.registerMigration("Push.channels.1-registry") { db in
            try db.execute("""
                CREATE TABLE push_channels(
                    id text COLLATE "C" PRIMARY KEY,
                    attributes_type text NOT NULL,
                    registered_at float8 NOT NULL,
                    closed_at float8,
                    close_reason text)
                """)
        }
        return migrator
    }

    static var planner: PostgresMigrator {
        var migrator = PostgresMigrator()
        migrator.registerMigration("Push.planner.1-activities-decisions-policies") { db in
            try db.execute("""
                CREATE TABLE push_planner_activities(
                    activity_id text COLLATE "C" PRIMARY KEY,
                    attributes_type text NOT NULL,
                    first_at float8 NOT NULL,
                    ends_at float8 NOT NULL,
                    last_push_at float8,
                    last_state text,
                    pending_state text,
                    pending_due float8,
                    frequent_pushes int8 NOT NULL DEFAULT 0,
                    ended_at float8);
                CREATE INDEX push_planner_due ON push_planner_activities(pending_due) WHERE ended_at IS NULL;
                CREATE INDEX push_planner_ends ON push_planner_activities(ends_at) WHERE ended_at IS NULL;
                CREATE TABLE push_decisions(
                    id int8 GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    activity_id text NOT NULL,
                    at float8 NOT NULL,
                    kind text NOT NULL,
                    reason text NOT NULL,
                    state text,
                    apns_id text,
                    priority int8,
                    due_at float8);
                CREATE INDEX push_decisions_by_activity ON push_decisions(activity_id, id);
                CREATE TABLE push_policies(attributes_type text PRIMARY KEY, policy text NOT NULL)
                """)
        }
        return migrator
    }
}
