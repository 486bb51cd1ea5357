import Foundation

/// Ordered, named schema migrations for a PostgreSQL database, each applied once and recorded in
/// `widgethost_migrations`, as SharedState's `Migrator` does for SQLite.
///
/// Several daemons may start together on one database: each migration runs in its own transaction that first
/// takes a transaction-level advisory lock, so exactly one of them applies it and the others, waiting on the
/// lock, then find it recorded and skip it.
public struct PostgresMigrator: Sendable {
    /// One migration: its unique name and the work it does.
    public struct Migration: Sendable {
        public let name: String
        let apply: @Sendable (PostgresConnection) throws -> Void
    }

    /// The table that records applied migrations.
    public static let tableName = "widgethost_migrations"
    /// The advisory lock every migration transaction takes (an arbitrary constant, "WHMIGRAT" in ASCII).
    static let lockKey: Int64 = 0x5748_4D49_4752_4154

    /// The migrations, in the order they are applied.
    public private(set) var migrations: [Migration] = []

    /// An empty migrator.
    public init() {}

    /// Appends a migration; its name must be new.
    public mutating func registerMigration(_ name: String,
                                           _ apply: @escaping @Sendable (PostgresConnection) throws -> Void) {
        precondition(!migrations.contains { $0.name == name }, "migration \"\(name)\" is registered twice")
        migrations.append(Migration(name: name, apply: apply))
    }

    /// Applies every migration not yet recorded, in order.
    /// - Returns: The names of the migrations this call applied.
    /// - Throws: ``PostgresError``; a migration that fails is rolled back and the ones after it are not run.
    @discardableResult
    public func migrate(_ pool: PostgresPool) throws -> [String] {
        var applied: [String] = []
        for migration in migrations {
            let didApply = try pool.transaction { connection -> Bool in
                try connection.execute("SELECT pg_advisory_xact_lock($1)", [.integer(Self.lockKey)])
                try connection.execute("""
                    CREATE TABLE IF NOT EXISTS \(Self.tableName)(
                        name text PRIMARY KEY,
                        applied_at timestamptz NOT NULL DEFAULT now())
                    """)
                let found = try connection.queryOne("SELECT 1 AS found FROM \(Self.tableName) WHERE name = $1",
                                                    [.text(migration.name)])
                guard found == nil else { return false }
                try migration.apply(connection)
                try connection.execute("INSERT INTO \(Self.tableName)(name) VALUES ($1)", [.text(migration.name)])
                return true
            }
            if didApply { applied.append(migration.name) }
        }
        return applied
    }

    /// The names of the migrations recorded in the database, in the order they were applied.
    public static func appliedMigrations(in pool: PostgresPool) throws -> [String] {
        try pool.withConnection { connection in
            guard try connection.queryOne("SELECT to_regclass($1) AS found", [.text(tableName)])?
                .string("found") != nil else { return [] }
            return try connection.query("SELECT name FROM \(tableName) ORDER BY applied_at, name")
                .compactMap { $0.string("name") }
        }
    }
}
