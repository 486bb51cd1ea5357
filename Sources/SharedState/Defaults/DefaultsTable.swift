/// The defaults table: every suite's keys and values, one row per key.
///
/// ```sql
/// CREATE TABLE shared_state_defaults (
///     suite TEXT NOT NULL, key TEXT NOT NULL,
///     type TEXT NOT NULL,   -- PropertyListValue case name
///     value,                -- native SQLite value, or tagged BLOB for containers
///     PRIMARY KEY (suite, key))
/// ```
///
/// An ordinary rowid table, so change capture sees stable rowids.
enum DefaultsTable {
    static let name = "shared_state_defaults"

    /// The container's migrations (the defaults table).
    static func registerMigrations(in migrator: inout Migrator) {
        migrator.registerMigration("SharedState.1-defaults") { db in
            try db.execute("""
                CREATE TABLE \(name) (
                    suite TEXT NOT NULL,
                    key TEXT NOT NULL,
                    type TEXT NOT NULL,
                    value,
                    PRIMARY KEY (suite, key)
                )
                """)
        }
    }

    static let selectSQL = "SELECT type, value FROM \(name) WHERE suite = ? AND key = ?"
    static let selectSuiteSQL = "SELECT key, type, value FROM \(name) WHERE suite = ? ORDER BY key"
    static let upsertSQL = """
        INSERT INTO \(name)(suite, key, type, value) VALUES (?, ?, ?, ?)
        ON CONFLICT(suite, key) DO UPDATE SET type = excluded.type, value = excluded.value
        """
    static let deleteSQL = "DELETE FROM \(name) WHERE suite = ? AND key = ?"

    /// Reads a captured change of the table's rows, before or after it: which key it is, and its value if it
    /// decodes; `nil` when the change has no such row (an insert's before, a delete's after).
    static func decode(_ change: RowChange, before: Bool) -> (id: KeyChange.ID, value: PropertyListValue?)? {
        guard case .text(let suite)? = change.value("suite", before: before),
              case .text(let key)? = change.value("key", before: before) else { return nil }
        var value: PropertyListValue?
        if case .text(let type)? = change.value("type", before: before), let stored = change.value("value", before: before) {
            value = PropertyListValue(storageType: type, value: stored)
        }
        return (KeyChange.ID(suite: suite, key: key), value)
    }
}
