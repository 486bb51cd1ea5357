import SharedState

/// The Smart Stack tables, kept in the engine store (`widgethost.sqlite`).
///
/// - `smart_stacks` / `smart_stack_members`: stacks and their instances in the user's order.
/// - `smart_stack_rotation`: each stack's top instance and since when, so rotation is stable across calls and
///   restarts.
/// - `intent_donations`: donated intents (type and canonical parameters), by time.
/// - `relevant_intents`: the app's current `RelevantIntentManager` list (replaced as a whole).
/// - `relevance_previous_timelines`: the timeline a configuration had before its current one, kept by a trigger
///   when the engine stores a new timeline, so "nil keeps the previous relevance" reaches across timelines.
enum RelevanceSchema {
    static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration("WidgetHost.relevance.1-stacks-donations-contexts") { db in
            try db.execute("""
                CREATE TABLE smart_stacks(
                    id TEXT PRIMARY KEY NOT NULL,
                    created_at REAL NOT NULL)
                """)
            try db.execute("""
                CREATE TABLE smart_stack_members(
                    stack_id TEXT NOT NULL REFERENCES smart_stacks(id) ON DELETE CASCADE,
                    instance_id TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    PRIMARY KEY(stack_id, instance_id))
                """)
            try db.execute("CREATE INDEX smart_stack_members_by_instance ON smart_stack_members(instance_id)")
            try db.execute("""
                CREATE TABLE smart_stack_rotation(
                    stack_id TEXT PRIMARY KEY NOT NULL REFERENCES smart_stacks(id) ON DELETE CASCADE,
                    top_instance_id TEXT NOT NULL,
                    since REAL NOT NULL,
                    evaluated_at REAL NOT NULL)
                """)
            try db.execute("""
                CREATE TABLE intent_donations(
                    id TEXT PRIMARY KEY NOT NULL,
                    intent_type TEXT NOT NULL,
                    parameters TEXT NOT NULL,
                    donated_at REAL NOT NULL)
                """)
            try db.execute("CREATE INDEX intent_donations_by_type ON intent_donations(intent_type, donated_at)")
            try db.execute("""
                CREATE TABLE relevant_intents(
                    position INTEGER PRIMARY KEY NOT NULL,
                    widget_kind TEXT NOT NULL,
                    intent_type TEXT NOT NULL,
                    parameters TEXT NOT NULL,
                    context TEXT NOT NULL)
                """)
            try db.execute("CREATE INDEX relevant_intents_by_kind ON relevant_intents(widget_kind)")
            try db.execute("""
                CREATE TABLE relevance_previous_timelines(
                    configuration_key TEXT PRIMARY KEY NOT NULL,
                    timeline TEXT NOT NULL)
                """)
            try db.execute("""
                CREATE TRIGGER relevance_keep_previous_timeline
                AFTER UPDATE OF timeline ON configurations
                WHEN OLD.timeline IS NOT NULL AND NEW.timeline IS NOT OLD.timeline
                BEGIN
                    INSERT INTO relevance_previous_timelines(configuration_key, timeline)
                    VALUES (OLD.key, OLD.timeline)
                    ON CONFLICT(configuration_key) DO UPDATE SET timeline = excluded.timeline;
                END
                """)
            try db.execute("""
                CREATE TRIGGER relevance_forget_previous_timeline
                AFTER DELETE ON configurations
                BEGIN
                    DELETE FROM relevance_previous_timelines WHERE configuration_key = OLD.key;
                END
                """)
        }
        return migrator
    }
}
