import SharedState

/// The reload log by configuration, newest first: what an instance's reload history is read through
/// (`GET /v1/instances/{id}/reloads`, which the dashboard asks for every instance every 2 s).
///
/// One index entry per provider run, whatever the number of instances the run served, so a refresh of 1k
/// configurations held by 100k instances writes 1k entries (an entry per instance served measured 1.5 times slower
/// on `widgethost-bench timelines`).
enum ReloadLogSchema {
    /// What `charged_instance_ids` holds for a run charged to every instance it served (most runs that are
    /// charged): this marker, instead of the served list a second time. At 100 instances a configuration the list
    /// is a kilobyte, written to the log, its WAL and its `fsync` twice per run otherwise. Not a JSON array, so it
    /// cannot be taken for a list; rows written before it existed hold the list itself, and read as before.
    static let chargedEveryServedInstance = "*"

    static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration("WidgetHost.reload-log.1-by-configuration") { db in
            try db.execute("CREATE INDEX reload_log_by_configuration ON reload_log(configuration_key, sequence)")
        }
        return migrator
    }
}
