import SharedState

/// The engine store's control tables: placed controls with their last value, and the log of their reloads (kept
/// so a host or a test can see which reloads a perform or a `ControlCenter` request caused).
enum ControlSchema {
    static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration("WidgetHost.controls.1-instances-reloads") { db in
            try db.execute("""
                CREATE TABLE control_instances(
                    id TEXT PRIMARY KEY NOT NULL,
                    kind TEXT NOT NULL,
                    placed_at REAL NOT NULL,
                    value TEXT,
                    value_read_at REAL,
                    last_failure TEXT)
                """)
            try db.execute("CREATE INDEX control_instances_by_kind ON control_instances(kind)")
            try db.execute("""
                CREATE TABLE control_reload_log(
                    sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                    instance_id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    ran_at REAL NOT NULL,
                    value TEXT,
                    failure TEXT)
                """)
        }
        migrator.registerMigration("WidgetHost.controls.2-configuration") { db in
            // Canonical JSON object of the configuration intent's parameters; NULL for a static control.
            try db.execute("ALTER TABLE control_instances ADD COLUMN configuration TEXT")
        }
        return migrator
    }
}
