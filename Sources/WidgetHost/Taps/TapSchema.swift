import SharedState

/// The tap log's table and indexes.
///
/// One row per tap. The indexes serve the three readers:
/// - `taps_by_time(tapped_at, route, kind, family, source, location, suspicious)`: covers every report (range on
///   time, group by any dimension) without touching the table;
/// - `taps_unmatched(tapped_at, url) WHERE route IS NULL`: the broken-link report reads only unmatched taps;
/// - `taps_by_instance(instance_id, tapped_at) WHERE instance_id IS NOT NULL`: recent taps of one widget, for
///   Smart Stack ranking.
///
/// Since `WidgetHost.taps.2-rollups`, counts per UTC quarter hour are kept beside the log (``TapRollup``), in the
/// taps' own transaction, and the migration backfills them from the taps already stored.
enum TapSchema {
    static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration("WidgetHost.taps.1-log") { db in
            try db.execute("""
                CREATE TABLE taps(
                    id INTEGER PRIMARY KEY,
                    tapped_at REAL NOT NULL,
                    url TEXT NOT NULL,
                    route TEXT,
                    instance_id TEXT,
                    kind TEXT NOT NULL,
                    family TEXT NOT NULL,
                    source TEXT NOT NULL,
                    location TEXT NOT NULL,
                    suspicious INTEGER NOT NULL DEFAULT 0,
                    diagnostic TEXT)
                """)
            try db.execute("""
                CREATE INDEX taps_by_time ON taps(tapped_at, route, kind, family, source, location, suspicious)
                """)
            try db.execute("CREATE INDEX taps_unmatched ON taps(tapped_at, url) WHERE route IS NULL")
            try db.execute("""
                CREATE INDEX taps_by_instance ON taps(instance_id, tapped_at) WHERE instance_id IS NOT NULL
                """)
        }
        migrator.registerMigration("WidgetHost.taps.2-rollups") { db in
            try TapRollup.createTables(db)
            try TapRollup.backfill(db)
        }
        return migrator
    }
}
