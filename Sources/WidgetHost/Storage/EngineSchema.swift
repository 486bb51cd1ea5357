import SharedState

/// The engine's own tables, kept in `widgethost.sqlite` beside the App Group containers.
///
/// The schedule lives here too, so a restarted engine honours it. The first migration kept it (and the budget
/// ledger) per instance; ``ConfigurationScheduleSchema`` moves both to the configuration the instances share.
enum EngineSchema {
    static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration("WidgetHost.1-instances-timelines-schedule") { db in
            try db.execute("""
                CREATE TABLE configurations(
                    key TEXT PRIMARY KEY NOT NULL,
                    kind TEXT NOT NULL,
                    family TEXT NOT NULL,
                    parameters TEXT NOT NULL,
                    resolution_diagnostics TEXT NOT NULL DEFAULT '[]',
                    timeline TEXT,
                    reordered INTEGER NOT NULL DEFAULT 0,
                    provider_runs INTEGER NOT NULL DEFAULT 0,
                    last_failure TEXT)
                """)
            // Clustered by configuration (WITHOUT ROWID, keyed by configuration then id): a reload reads the
            // instances of one configuration together. Their schedule and budget ledger were moved to the
            // configuration by ``ConfigurationScheduleSchema``.
            try db.execute("""
                CREATE TABLE widget_instances(
                    id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    family TEXT NOT NULL,
                    raw_parameters TEXT NOT NULL,
                    resolution_diagnostics TEXT NOT NULL DEFAULT '[]',
                    configuration_key TEXT NOT NULL REFERENCES configurations(key),
                    placed_at REAL NOT NULL,
                    updated_at REAL NOT NULL,
                    next_reload_at REAL,
                    next_reload_reason TEXT,
                    deferred INTEGER NOT NULL DEFAULT 0,
                    charges TEXT NOT NULL DEFAULT '[]',
                    PRIMARY KEY (configuration_key, id)) WITHOUT ROWID
                """)
            try db.execute("CREATE UNIQUE INDEX widget_instances_by_id ON widget_instances(id)")
            try db.execute("""
                CREATE INDEX widget_instances_due ON widget_instances(next_reload_at, id)
                WHERE next_reload_at IS NOT NULL
                """)
            try db.execute("CREATE INDEX widget_instances_by_kind ON widget_instances(kind)")
            try db.execute("""
                CREATE TABLE reload_log(
                    sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                    configuration_key TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    ran_at REAL NOT NULL,
                    instance_ids TEXT NOT NULL,
                    charged_instance_ids TEXT NOT NULL,
                    outcome TEXT NOT NULL)
                """)
            try db.execute("CREATE TABLE engine_settings(name TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)")
        }
        migrator.append(contentsOf: RelevanceSchema.migrator)
        migrator.append(contentsOf: TapSchema.migrator)
        migrator.append(contentsOf: ActivitySchema.migrator)
        migrator.append(contentsOf: ControlSchema.migrator)
        migrator.append(contentsOf: ReloadLogSchema.migrator)
        migrator.append(contentsOf: ConfigurationScheduleSchema.migrator)
        return migrator
    }
}
