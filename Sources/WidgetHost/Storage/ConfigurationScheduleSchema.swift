import SharedState

/// The reload schedule and the budget ledger kept per configuration, not per instance.
///
/// Instances sharing a configuration share its timeline, so one provider run serves them all: they also share its
/// next reload (`configurations.next_reload_at`, with `next_reload_reason` and `deferred`) and its budget ledger
/// (`configurations.charges`, a JSON array of the times, in seconds since 1970, of its charged reloads still inside
/// the window, pruned whenever it is charged). A rebuild then writes one row per configuration however many
/// instances hold it, and due reloads are read from `configurations_due` in time order.
///
/// The migration moves what databases made before it kept per instance: a configuration takes the earliest
/// scheduled reload of its instances (with its reason and whether the budget deferred it) and the union of their
/// charges (every instance of a configuration was charged at the same times unless some joined later, so the union is
/// the ledger of its longest-placed instance); the per-instance columns and their index are dropped.
enum ConfigurationScheduleSchema {
    static let migrationName = "WidgetHost.2-schedule-and-budget-by-configuration"

    static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration(migrationName) { db in
            try db.execute("ALTER TABLE configurations ADD COLUMN next_reload_at REAL")
            try db.execute("ALTER TABLE configurations ADD COLUMN next_reload_reason TEXT")
            try db.execute("ALTER TABLE configurations ADD COLUMN deferred INTEGER NOT NULL DEFAULT 0")
            try db.execute("ALTER TABLE configurations ADD COLUMN charges TEXT NOT NULL DEFAULT '[]'")
            try db.execute("""
                UPDATE configurations SET (next_reload_at, next_reload_reason, deferred) = (
                    SELECT next_reload_at, next_reload_reason, deferred FROM widget_instances
                    WHERE configuration_key = configurations.key AND next_reload_at IS NOT NULL
                    ORDER BY next_reload_at, id LIMIT 1)
                WHERE EXISTS (SELECT 1 FROM widget_instances
                              WHERE configuration_key = configurations.key AND next_reload_at IS NOT NULL)
                """)
            try db.execute("""
                UPDATE configurations SET charges = (
                    SELECT json_group_array(charged_at) FROM (
                        SELECT DISTINCT j.value AS charged_at FROM widget_instances i, json_each(i.charges) j
                        WHERE i.configuration_key = configurations.key ORDER BY j.value))
                """)
            try db.execute("DROP INDEX widget_instances_due")
            for column in ["next_reload_at", "next_reload_reason", "deferred", "charges"] {
                try db.execute("ALTER TABLE widget_instances DROP COLUMN \(column)")
            }
            try db.execute("""
                CREATE INDEX configurations_due ON configurations(next_reload_at, key)
                WHERE next_reload_at IS NOT NULL
                """)
        }
        return migrator
    }
}
