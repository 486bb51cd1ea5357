import SharedState

/// The engine's Live Activity tables, in `widgethost.sqlite`.
///
/// `activities` holds each activity as it is now; `activity_events` its whole history (the source of "what did
/// the Lock Screen show at T" and of why an update was ignored); `activity_tokens` every token ever issued, the
/// replaced ones kept so a push to an old token can be told apart from one to a token that never existed.
/// `activities.next_transition_at` (indexed) is when the activity's next time-driven change comes due, so settling
/// reads only the activities that have one due instead of every live activity.
enum ActivitySchema {
    static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration("WidgetHost.activities.1-activities-events-tokens") { db in
            try db.execute("""
                CREATE TABLE activities(
                    id TEXT PRIMARY KEY NOT NULL,
                    attributes_type TEXT NOT NULL,
                    attributes TEXT NOT NULL,
                    content_state TEXT NOT NULL,
                    stale_date REAL,
                    relevance_score REAL NOT NULL,
                    state TEXT NOT NULL,
                    push TEXT NOT NULL,
                    channel_id TEXT,
                    style TEXT NOT NULL,
                    started_by TEXT NOT NULL,
                    requested_at REAL NOT NULL,
                    starts_at REAL NOT NULL,
                    start_alert TEXT,
                    ended_at REAL,
                    dismisses_at REAL,
                    last_update_at REAL NOT NULL,
                    next_transition_at REAL)
                """)
            try db.execute("CREATE INDEX activities_by_type ON activities(attributes_type, requested_at)")
            try db.execute("CREATE INDEX activities_by_channel ON activities(channel_id) WHERE channel_id IS NOT NULL")
            try db.execute("CREATE INDEX activities_live ON activities(state) WHERE state <> 'dismissed'")
            try db.execute("""
                CREATE INDEX activities_due ON activities(next_transition_at) WHERE next_transition_at IS NOT NULL
                """)
            try db.execute("""
                CREATE TABLE activity_events(
                    sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                    activity_id TEXT,
                    at REAL NOT NULL,
                    source TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    detail TEXT NOT NULL)
                """)
            try db.execute("CREATE INDEX activity_events_by_activity ON activity_events(activity_id, sequence)")
            try db.execute("""
                CREATE TABLE activity_tokens(
                    token TEXT PRIMARY KEY NOT NULL,
                    activity_id TEXT,
                    attributes_type TEXT,
                    issued_at REAL NOT NULL,
                    replaced_at REAL,
                    rotates_at REAL)
                """)
            try db.execute("CREATE INDEX activity_tokens_by_activity ON activity_tokens(activity_id, issued_at)")
            try db.execute("CREATE INDEX activity_tokens_by_type ON activity_tokens(attributes_type, issued_at)")
        }
        return migrator
    }
}
