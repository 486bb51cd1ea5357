import SharedState

/// Which placed instances each reload-log run served, one row per (instance, run): the index behind an instance's
/// reload history (`GET /v1/instances/{id}/reloads`, which the dashboard asks for every instance every 2 s).
///
/// `reload_log.instance_ids` keeps the same list as JSON; reading an instance's runs from it would scan the log, which
/// only grows. Rows are written in the run's transaction and deleted with their instance, so an id placed again
/// starts with an empty history.
enum ReloadLogSchema {
    static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration("WidgetHost.reload-log.1-by-instance") { db in
            try db.execute("""
                CREATE TABLE reload_log_instances(
                    instance_id TEXT NOT NULL,
                    sequence INTEGER NOT NULL,
                    PRIMARY KEY (instance_id, sequence)) WITHOUT ROWID
                """)
            // The runs already logged, for the instances still placed.
            try db.execute("""
                INSERT OR IGNORE INTO reload_log_instances(instance_id, sequence)
                SELECT served.value, reload_log.sequence FROM reload_log, json_each(reload_log.instance_ids) AS served
                WHERE served.value IN (SELECT id FROM widget_instances)
                """)
        }
        return migrator
    }
}
