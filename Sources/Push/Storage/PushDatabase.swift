import Foundation
import PostgresStore
import SharedState

/// Where a push store keeps its tables: one SQLite database (one daemon) or one PostgreSQL database (several daemons
/// sharing it, `--push-store postgres://…`, Docs/postgres.md).
///
/// The registry, the planner and the outbox write their SQL once, in the dialect both databases read (`?`
/// parameters, `ON CONFLICT … DO UPDATE`, `RETURNING`), and run it through a ``PushSQLConnection``; the few
/// places the dialects differ ask ``PushSQLConnection/dialect``. Dates are seconds since 1970 (`REAL` in SQLite,
/// `float8` in PostgreSQL), so both stores keep the same values.
public enum PushDatabase: Sendable {
    /// One SQLite database (the engine's, by default).
    case sqlite(DatabaseStore)
    /// One PostgreSQL database, shared by every daemon given it.
    case postgres(PostgresPool)

    /// Runs `body` in one write transaction: committed when it returns, rolled back when it throws.
    ///
    /// On PostgreSQL the transaction is `SERIALIZABLE`, so two daemons judging the same activity or registering the
    /// same token at once cannot both act on what the other is changing: one of them is run again (``PostgresPool``
    /// re-runs a transaction on `40001`), so `body` must do nothing but database work.
    @discardableResult
    func write<T>(_ body: (PushSQLConnection) throws -> T) throws -> T {
        switch self {
        case .sqlite(let database):
            try database.write { db in try body(PushSQLConnection(sqlite: db)) }
        case .postgres(let pool):
            try pool.transaction(isolation: .serializable) { db in try body(PushSQLConnection(postgres: db)) }
        }
    }

    /// Runs `body` on a consistent read view (a SQLite read transaction; one PostgreSQL `REPEATABLE READ`
    /// transaction).
    func read<T>(_ body: (PushSQLConnection) throws -> T) throws -> T {
        switch self {
        case .sqlite(let database):
            try database.read { db in try body(PushSQLConnection(sqlite: db)) }
        case .postgres(let pool):
            try pool.transaction(isolation: .repeatableRead) { db in try body(PushSQLConnection(postgres: db)) }
        }
    }
}

/// The two SQL dialects a push store is written in.
enum PushSQLDialect: Sendable {
    case sqlite
    case postgres
}

/// One connection inside a ``PushDatabase`` transaction, in either dialect. Not to be kept past the transaction.
struct PushSQLConnection {
    private enum Handle {
        case sqlite(Database)
        case postgres(PostgresConnection)
    }

    private let handle: Handle

    init(sqlite db: Database) { handle = .sqlite(db) }

    init(postgres db: PostgresConnection) { handle = .postgres(db) }

    var dialect: PushSQLDialect {
        switch handle {
        case .sqlite: .sqlite
        case .postgres: .postgres
        }
    }

    /// The SQLite connection, for SQLite-only work inside a push store's transaction.
    var sqlite: Database? {
        if case .sqlite(let db) = handle { return db }
        return nil
    }

    /// Runs a query with `?` parameters and returns its rows.
    func query(_ sql: String, _ arguments: [SQLValue] = []) throws -> [PushSQLRow] {
        switch handle {
        case .sqlite(let db):
            try db.query(sql, arguments).map(PushSQLRow.init(sqlite:))
        case .postgres(let db):
            try db.query(PostgresPlaceholders.numbered(sql), arguments.map(PostgresValue.init)).map(PushSQLRow.init(postgres:))
        }
    }

    /// Runs a query with `?` parameters and returns its first row, if any.
    func queryOne(_ sql: String, _ arguments: [SQLValue] = []) throws -> PushSQLRow? {
        try query(sql, arguments).first
    }

    /// Runs a statement with `?` parameters.
    /// - Returns: How many rows it inserted, updated or deleted.
    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int {
        switch handle {
        case .sqlite(let db):
            try db.execute(sql, arguments)
            return db.changes
        case .postgres(let db):
            return try db.execute(PostgresPlaceholders.numbered(sql), arguments.map(PostgresValue.init))
        }
    }

    /// Whether the table `name` exists in the database.
    func hasTable(_ name: String) throws -> Bool {
        switch dialect {
        case .sqlite:
            try queryOne("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]) != nil
        case .postgres:
            try queryOne("SELECT to_regclass(?) AS found", [.text(name)])?.string("found") != nil
        }
    }
}

extension PostgresValue {
    /// A SQLite value as the PostgreSQL parameter of the same meaning (`REAL` seconds as `float8`): what lets a store
    /// written once for SQLite's values bind them on PostgreSQL (the push store, the tap log's reports).
    package init(_ value: SQLValue) {
        switch value {
        case .null: self = .null
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .double(real)
        case .text(let text): self = .text(text)
        case .blob(let data): self = .bytes([UInt8](data))
        }
    }
}

/// One result row of a push store's query, read the same way from either database.
struct PushSQLRow {
    private enum Storage {
        case sqlite(Row)
        case postgres(PostgresRow)
    }

    private let storage: Storage

    init(sqlite row: Row) { storage = .sqlite(row) }

    init(postgres row: PostgresRow) { storage = .postgres(row) }

    func string(_ column: String) -> String? {
        switch storage {
        case .sqlite(let row): row.string(column)
        case .postgres(let row): row.string(column)
        }
    }

    func int64(_ column: String) -> Int64? {
        switch storage {
        case .sqlite(let row): row.int64(column)
        case .postgres(let row): row.int64(column)
        }
    }

    func int(_ column: String) -> Int? {
        switch storage {
        case .sqlite(let row): row.int(column)
        case .postgres(let row): row.int(column)
        }
    }

    /// An integer column as a flag (both stores keep flags as 0 or 1).
    func bool(_ column: String) -> Bool? {
        switch storage {
        case .sqlite(let row): row.bool(column)
        case .postgres(let row): row.int64(column).map { $0 != 0 }
        }
    }

    /// Seconds since 1970 as a date.
    func date(_ column: String) -> Date? {
        switch storage {
        case .sqlite(let row): row.date(column)
        case .postgres(let row): row.date(column)
        }
    }

    /// A `BLOB` (SQLite) or `bytea` (PostgreSQL, whose text form is `\x` and hex digits).
    func data(_ column: String) -> Data? {
        switch storage {
        case .sqlite(let row): return row.data(column)
        case .postgres(let row):
            guard let text = row.string(column), text.hasPrefix("\\x") else { return nil }
            let hex = String(text.dropFirst(2))
            return hex.isEmpty ? Data() : PushTokenText.bytes(hex: hex)
        }
    }
}

extension PushDatabase {
    /// Applies a push table's migrations: `sqlite`'s on SQLite, `postgres`'s (the same tables in PostgreSQL's types)
    /// on PostgreSQL.
    func migrate(sqlite: Migrator, postgres: PostgresMigrator) throws {
        switch self {
        case .sqlite(let database): try sqlite.migrate(database)
        case .postgres(let pool): try postgres.migrate(pool)
        }
    }
}

extension PushSQLConnection {
    /// The column that orders rows of the registry's table as they were inserted: SQLite's `rowid`, PostgreSQL's
    /// identity column `seq`.
    var insertionOrder: String {
        switch dialect {
        case .sqlite: "rowid"
        case .postgres: "seq"
        }
    }
}
