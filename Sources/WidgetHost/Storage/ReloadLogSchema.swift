import Foundation
import SharedState

/// The reload log: one row per provider run (`reload_log`), naming the instances the run served through an interned
/// list (`reload_log_served`). It is what an instance's reload history is read from
/// (`GET /v1/instances/{id}/reloads`, which the dashboard asks for every instance every 2 s).
///
/// **By configuration.** An index of the runs by configuration, newest first: one index entry per provider run,
/// whatever the number of instances the run served, so a refresh of 1k configurations held by 100k instances writes
/// 1k entries (an entry per instance served measured 1.5 times slower on `widgethost-bench timelines`).
///
/// **Served lists interned.** Nearly every run of a configuration serves the same instances as its previous run, so
/// each distinct list is stored once in `reload_log_served` (`id`, `digest`: the SHA-256 of the list's text,
/// ``ServedListDigest``, unique; `instance_ids`: the JSON array of the ids, in id order), written with
/// `INSERT OR IGNORE` in the transaction (and savepoint) of the run whose row names it, and a run's row references it
/// (`served_id`, a foreign key). At 100 instances a configuration a list is a kilobyte; before this each run wrote it
/// into its own row, its WAL page and its `fsync`.
///
/// **The current list of each configuration.** `configurations.served_digest` names the list its last logged run
/// served, and triggers on `widget_instances` clear it in the same statement that adds an instance to the
/// configuration, removes one, or moves one to another configuration, whoever writes the row. While it is set, a run
/// names that list without reading the instances (their ids come from ``ServedListCache``; a process that has not
/// seen the list yet reads them once); when cleared, the run reads the instances holding the configuration inside
/// its transaction, as always, and sets it again.
///
/// **Retention.** Nothing deletes reload-log rows: the log grows by a row of about a hundred bytes per run, and by a
/// list per distinct set of instances served. Whatever prunes it must delete, in the same transaction, the lists that
/// neither a run nor a configuration names any more (`DELETE FROM reload_log_served WHERE id NOT IN (SELECT served_id
/// FROM reload_log) AND digest NOT IN (SELECT served_digest FROM configurations WHERE served_digest IS NOT NULL)`,
/// one pass); the foreign keys refuse the other way round (a list deleted while a run or a configuration names it).
enum ReloadLogSchema {
    /// What `charged_instance_ids` holds for a run charged to every instance it served (most runs that are
    /// charged): this marker, instead of the served list a second time. At 100 instances a configuration the list
    /// is a kilobyte, written to the log, its WAL and its `fsync` twice per run otherwise. Not a JSON array, so it
    /// cannot be taken for a list; rows written before it existed hold the list itself, and read as before.
    static let chargedEveryServedInstance = "*"

    /// The migration that interns the served lists: databases made before it have each run's list in its own row.
    static let internedServedListsMigrationName = "WidgetHost.reload-log.2-served-lists-interned"

    static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration("WidgetHost.reload-log.1-by-configuration") { db in
            try db.execute("CREATE INDEX reload_log_by_configuration ON reload_log(configuration_key, sequence)")
        }
        migrator.registerMigration(internedServedListsMigrationName, internServedLists)
        migrator.registerMigration(servedListByConfigurationMigrationName, keepServedListByConfiguration)
        return migrator
    }

    /// The migration that keeps each configuration's current served list (`configurations.served_digest`).
    static let servedListByConfigurationMigrationName = "WidgetHost.reload-log.3-served-list-by-configuration"

    /// Adds `configurations.served_digest` (NULL everywhere: each configuration's next run reads its instances) and
    /// the triggers that clear it when an instance joins or leaves the configuration, whatever writes the row.
    private static func keepServedListByConfiguration(_ db: Database) throws {
        try db.execute("""
            ALTER TABLE configurations ADD COLUMN served_digest BLOB REFERENCES reload_log_served(digest)
            """)
        // `AND served_digest IS NOT NULL`: a configuration's row holds its timeline, and placing its instances one
        // after another should rewrite it once, not per instance.
        try db.execute("""
            CREATE TRIGGER configurations_served_joined AFTER INSERT ON widget_instances BEGIN
                UPDATE configurations SET served_digest = NULL
                WHERE key = NEW.configuration_key AND served_digest IS NOT NULL;
            END
            """)
        try db.execute("""
            CREATE TRIGGER configurations_served_left AFTER DELETE ON widget_instances BEGIN
                UPDATE configurations SET served_digest = NULL
                WHERE key = OLD.configuration_key AND served_digest IS NOT NULL;
            END
            """)
        try db.execute("""
            CREATE TRIGGER configurations_served_moved AFTER UPDATE OF id, configuration_key ON widget_instances
            WHEN OLD.id IS NOT NEW.id OR OLD.configuration_key IS NOT NEW.configuration_key BEGIN
                UPDATE configurations SET served_digest = NULL
                WHERE key IN (OLD.configuration_key, NEW.configuration_key) AND served_digest IS NOT NULL;
            END
            """)
    }

    /// Stores `text` (a served list as the log writes it) in `reload_log_served` unless a list with its digest is
    /// there already, and returns the digest, which the run's row looks its list up by.
    static func intern(servedList text: String, _ db: Database) throws -> Data {
        let digest = ServedListDigest.of(text)
        try db.execute("INSERT OR IGNORE INTO reload_log_served(digest, instance_ids) VALUES (?, ?)",
                       [.blob(digest), .text(text)])
        return digest
    }

    /// Rows per read while the migration copies the log: the copy holds a page of rows at a time, not the log.
    private static let migrationPage = 512

    /// Moves every row's `instance_ids` into `reload_log_served` and rebuilds `reload_log` with `served_id` in its
    /// place (SQLite cannot drop a `NOT NULL` column's constraint in place). Each row keeps its sequence, and its list
    /// text as written (as text: a list that is not a JSON array of strings is refused when read, as before); rows
    /// that served the same text share one list.
    private static func internServedLists(_ db: Database) throws {
        try db.execute("""
            CREATE TABLE reload_log_served(
                id INTEGER PRIMARY KEY,
                digest BLOB NOT NULL UNIQUE CHECK (length(digest) = \(ServedListDigest.length)),
                instance_ids TEXT NOT NULL)
            """)
        try db.execute("""
            CREATE TABLE reload_log_interned(
                sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                configuration_key TEXT NOT NULL,
                reason TEXT NOT NULL,
                ran_at REAL NOT NULL,
                served_id INTEGER NOT NULL REFERENCES reload_log_served(id),
                charged_instance_ids TEXT NOT NULL,
                outcome TEXT NOT NULL)
            """)
        var after: Int64 = 0
        while true {
            let page = try db.query("""
                SELECT sequence, CAST(instance_ids AS TEXT) AS instance_ids FROM reload_log
                WHERE sequence > ? ORDER BY sequence LIMIT ?
                """, [.integer(after), .integer(Int64(migrationPage))])
            for row in page {
                guard let sequence = row.int64("sequence"), let text = row.string("instance_ids") else {
                    throw EngineError.corruptRow(column: "instance_ids", detail: "NULL")
                }
                let digest = try intern(servedList: text, db)
                try db.execute("""
                    INSERT INTO reload_log_interned(sequence, configuration_key, reason, ran_at, served_id,
                        charged_instance_ids, outcome)
                    SELECT sequence, configuration_key, reason, ran_at,
                        (SELECT id FROM reload_log_served WHERE digest = ?), charged_instance_ids, outcome
                    FROM reload_log WHERE sequence = ?
                    """, [.blob(digest), .integer(sequence)])
                after = sequence
            }
            if page.count < migrationPage { break }
        }
        try db.execute("DROP TABLE reload_log")
        try db.execute("ALTER TABLE reload_log_interned RENAME TO reload_log")
        try db.execute("CREATE INDEX reload_log_by_configuration ON reload_log(configuration_key, sequence)")
    }
}
