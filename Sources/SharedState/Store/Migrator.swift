import Foundation

/// Ordered, named schema migrations, each applied once, recorded in the database.
///
/// Register migrations in the order they must run; ``migrate(_:)`` applies those not yet
/// recorded in the `shared_state_migrations` table, in registration order, each in its own
/// `BEGIN IMMEDIATE` transaction together with its record, so a crash leaves every migration
/// either fully applied and recorded or not at all. Running it again applies only new ones.
///
/// Several migrators may share one database (the container has its own; the engine registers
/// its own): the table is shared, so give migrations names unique across them, e.g. prefixed
/// with the module (`"WidgetHost.1-timelines"`).
///
/// ```swift
/// var migrator = Migrator()
/// migrator.registerMigration("Tasks.1-create") { db in
///     try db.execute("CREATE TABLE task(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
/// }
/// try migrator.migrate(store)
/// ```
public struct Migrator: Sendable {
    /// One registered migration.
    public struct Migration: Sendable {
        /// The name recorded once the migration is applied.
        public let name: String
        let apply: @Sendable (Database) throws -> Void
    }

    /// The table recording applied migrations: `name` (primary key) and `applied_at`
    /// (REAL seconds since 1970).
    public static let tableName = "shared_state_migrations"

    /// The registered migrations, in order.
    public private(set) var migrations: [Migration] = []

    /// Creates an empty migrator.
    public init() {}

    /// Adds a migration after those already registered.
    ///
    /// - Parameters:
    ///   - name: A name unique among all migrations of the database.
    ///   - apply: The schema or data changes; runs inside the migration's transaction.
    /// - Precondition: No migration of this migrator has the same name (a programming error).
    public mutating func registerMigration(_ name: String, _ apply: @escaping @Sendable (Database) throws -> Void) {
        precondition(!migrations.contains { $0.name == name }, "migration \"\(name)\" is registered twice")
        migrations.append(Migration(name: name, apply: apply))
    }

    /// Adds all of `other`'s migrations after this one's.
    ///
    /// - Precondition: The two have no name in common.
    public mutating func append(contentsOf other: Migrator) {
        for migration in other.migrations { registerMigration(migration.name, migration.apply) }
    }

    /// Applies the migrations not yet recorded in `store`, in order.
    ///
    /// - Parameter store: The database to migrate.
    /// - Returns: The names of the migrations applied by this call.
    /// - Throws: The first failing migration's error (that migration and later ones are not
    ///   applied; earlier ones stay applied), or ``SQLiteError``.
    @discardableResult
    public func migrate(_ store: DatabaseStore) throws -> [String] {
        try store.write { db in try Self.createTable(db) }
        var applied: [String] = []
        for migration in migrations {
            let didApply = try store.write { db -> Bool in
                // Checked inside the transaction: another process may have just applied it.
                guard try !Self.isApplied(migration.name, db) else { return false }
                try migration.apply(db)
                try db.execute("INSERT INTO \(Self.tableName)(name, applied_at) VALUES (?, ?)",
                               [.text(migration.name), Date().sqlValue])
                return true
            }
            if didApply { applied.append(migration.name) }
        }
        return applied
    }

    /// The names of the migrations recorded in `store`, in the order they were applied.
    ///
    /// - Throws: ``SQLiteError``.
    public static func appliedMigrations(in store: DatabaseStore) throws -> [String] {
        try store.read { db in
            let exists = try db.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?",
                                       [.text(tableName)], as: Int.self) ?? 0
            guard exists > 0 else { return [] }
            return try db.query("SELECT name FROM \(tableName) ORDER BY rowid").compactMap { $0.string("name") }
        }
    }

    private static func createTable(_ db: Database) throws {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS \(tableName) (
                name TEXT PRIMARY KEY NOT NULL,
                applied_at REAL NOT NULL
            )
            """)
    }

    private static func isApplied(_ name: String, _ db: Database) throws -> Bool {
        try db.scalar("SELECT count(*) FROM \(tableName) WHERE name = ?", [.text(name)], as: Int.self) ?? 0 > 0
    }
}
