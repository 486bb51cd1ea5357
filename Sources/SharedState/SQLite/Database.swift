import CSQLite
import Foundation

/// One SQLite connection: the single owner of a `sqlite3` handle, closed in `deinit`.
///
/// A `Database` is not thread-safe. You receive one inside ``DatabaseStore/write(_:)`` or
/// ``DatabaseStore/read(_:)`` closures, which guarantee it is used by one thread at a time;
/// do not let it escape those closures.
///
/// Statements are prepared once per SQL string and cached for the life of the connection.
/// Values are always bound as parameters (`?`), never interpolated into SQL.
///
/// See [Database Connection Handle](https://www.sqlite.org/c3ref/sqlite3.html).
public final class Database {
    let handle: OpaquePointer
    /// The file this connection was opened on, or `:memory:`.
    public let path: String
    private var statementCache: [String: Statement] = [:]
    /// Statements found again by where their SQL text's bytes are, ahead of ``statementCache``: SQL written as a
    /// literal keeps one address for the life of the process, so the same call finds its statement without hashing
    /// the text. A slot is used only when its text equals the SQL given (for the same literal that comparison takes
    /// no look at the bytes), so a string made later at a freed one's address is told apart.
    private var recentStatements = [(sql: String, statement: Statement)?](repeating: nil, count: 64)
    /// The savepoints open on this connection (those opened through ``openSavepoint()``).
    private var savepointDepth = 0
    /// `SAVEPOINT`, `RELEASE` and `ROLLBACK TO` text per nesting depth, built once: the names are reused, so the
    /// statements are prepared once and then found in the cache.
    private var savepointSQL: [SavepointSQL] = []
    /// The recorder behind ``DatabaseStore/writeCapturingChanges(_:)``; set on writer connections.
    var changeRecorder: ChangeRecorder?

    /// Opens a connection.
    ///
    /// - Parameters:
    ///   - path: The database file, or `:memory:`.
    ///   - flags: `SQLITE_OPEN_*` flags; `SQLITE_OPEN_NOMUTEX` is added (one thread at a time is
    ///     guaranteed by the owner) and so is `SQLITE_OPEN_EXRESCODE`.
    ///   - busyTimeout: How long a statement waits for another connection's lock.
    /// - Throws: ``SQLiteError`` when the file cannot be opened.
    ///
    /// See [sqlite3_open_v2](https://www.sqlite.org/c3ref/open.html).
    init(path: String, flags: Int32, busyTimeout: Duration) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nil)
        guard let handle else {
            throw SQLiteError(extendedCode: code, message: "cannot allocate a connection", path: path)
        }
        do {
            try SQLiteError.check(code, handle, sql: nil)
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        self.path = path
        let (seconds, attoseconds) = busyTimeout.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        try SQLiteError.check(sqlite3_busy_timeout(handle, Int32(clamping: milliseconds)), handle)
        try SQLiteError.check(csqlite_enable_defensive(handle), handle)
    }

    deinit {
        recentStatements.removeAll()
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs SQL that returns no rows (or whose rows are ignored).
    ///
    /// `sql` may hold several statements separated by `;` when `arguments` is empty (handy for
    /// migrations); with arguments it must hold exactly one.
    ///
    /// - Parameters:
    ///   - sql: The SQL, with `?` placeholders.
    ///   - arguments: Values bound to the placeholders, in order.
    /// - Throws: ``SQLiteError``.
    ///
    /// See [sqlite3_step](https://www.sqlite.org/c3ref/step.html).
    public func execute(_ sql: String, _ arguments: [SQLValue] = []) throws {
        if let cached = cached(sql) {
            defer { sqlite3_reset(cached.handle) }
            try cached.reset(binding: arguments)
            while try cached.step() {}
            return
        }
        var remaining = Substring(sql).utf8
        var isFirst = true
        while true {
            let (prepared, rest) = try Statement.prepare(remaining, in: self, persistent: isFirst)
            guard let statement = prepared else { return }
            let isOnly = isFirst && Statement.isBlank(rest)
            if !isOnly && !arguments.isEmpty {
                throw SQLiteError(extendedCode: SQLITE_ERROR,
                                  message: "arguments need SQL holding exactly one statement",
                                  sql: sql, path: path)
            }
            if isOnly { cache(statement, for: sql) }
            defer { sqlite3_reset(statement.handle) }
            try statement.reset(binding: arguments)
            while try statement.step() {}
            if isOnly { return }
            isFirst = false
            remaining = rest
        }
    }

    /// Runs a query and copies out every row.
    ///
    /// - Parameters:
    ///   - sql: One SQL statement, with `?` placeholders.
    ///   - arguments: Values bound to the placeholders, in order.
    /// - Returns: The rows, in the order SQLite produced them.
    /// - Throws: ``SQLiteError``.
    public func query(_ sql: String, _ arguments: [SQLValue] = []) throws -> [Row] {
        let statement = try cachedStatement(sql)
        try statement.reset(binding: arguments)
        defer { sqlite3_reset(statement.handle) }
        var rows: [Row] = []
        var names: [String]?
        let count = sqlite3_column_count(statement.handle)
        while try statement.step() {
            let columnNames = names ?? statement.columnNames
            names = columnNames
            rows.append(Row(columnNames: columnNames, values: (0..<count).map { statement.value(at: $0) }))
        }
        return rows
    }

    /// Runs a query and returns the text of its first column, row by row, without building a ``Row`` per row
    /// (for long lists of ids); rows whose value there is not text (NULL included) are left out.
    ///
    /// - Parameters:
    ///   - sql: One SQL statement, with `?` placeholders.
    ///   - arguments: Values bound to the placeholders, in order.
    /// - Returns: The texts, in the order SQLite produced the rows.
    /// - Throws: ``SQLiteError``.
    public func texts(_ sql: String, _ arguments: [SQLValue] = []) throws -> [String] {
        let statement = try cachedStatement(sql)
        try statement.reset(binding: arguments)
        defer { sqlite3_reset(statement.handle) }
        var texts: [String] = []
        while try statement.step() {
            if case .text(let text) = statement.value(at: 0) { texts.append(text) }
        }
        return texts
    }

    /// Runs a query and returns its first row, if any.
    ///
    /// - Returns: The first row, or `nil` when the query produced none.
    /// - Throws: ``SQLiteError``.
    public func queryOne(_ sql: String, _ arguments: [SQLValue] = []) throws -> Row? {
        let statement = try cachedStatement(sql)
        try statement.reset(binding: arguments)
        defer { sqlite3_reset(statement.handle) }
        guard try statement.step() else { return nil }
        let count = sqlite3_column_count(statement.handle)
        return Row(columnNames: statement.columnNames, values: (0..<count).map { statement.value(at: $0) })
    }

    /// Runs a query and returns the first column of its first row.
    ///
    /// - Returns: That value converted to `T`; `nil` when there is no row, the value is NULL,
    ///   or it has another storage class.
    /// - Throws: ``SQLiteError``.
    public func scalar<T: SQLValueConvertible>(_ sql: String, _ arguments: [SQLValue] = [],
                                               as type: T.Type = T.self) throws -> T? {
        let statement = try cachedStatement(sql)
        try statement.reset(binding: arguments)
        defer { sqlite3_reset(statement.handle) }
        guard try statement.step(), sqlite3_column_count(statement.handle) > 0 else { return nil }
        return T(sqlValue: statement.value(at: 0))
    }

    /// The number of rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    ///
    /// See [sqlite3_changes64](https://www.sqlite.org/c3ref/changes.html).
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The rowid of the last successful `INSERT` on this connection.
    ///
    /// See [sqlite3_last_insert_rowid](https://www.sqlite.org/c3ref/last_insert_rowid.html).
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Whether a transaction is open on this connection.
    ///
    /// See [sqlite3_get_autocommit](https://www.sqlite.org/c3ref/get_autocommit.html).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` inside a savepoint: a transaction that nests inside the current one.
    ///
    /// The savepoint gets a name unique among the savepoints open on this connection (names are
    /// reused by depth, so their statements come from the cache). When `body` returns, the savepoint
    /// is released (its changes join the enclosing transaction); when it throws, everything
    /// it did is rolled back, changes recorded for ``DatabaseStore/writeCapturingChanges(_:)``
    /// are dropped, and the error is rethrown. Use this rather than raw `SAVEPOINT` SQL, which
    /// change capture cannot follow.
    ///
    /// - Parameter body: The work to do; it receives this connection.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw, or ``SQLiteError``.
    ///
    /// See [SAVEPOINT](https://www.sqlite.org/lang_savepoint.html).
    public func inSavepoint<T>(_ body: (Database) throws -> T) throws -> T {
        let savepoint = try openSavepoint()
        let result: T
        do {
            result = try body(self)
        } catch {
            rollBack(savepoint)
            throw error
        }
        try release(savepoint)
        return result
    }

    /// The statements of the savepoint at one nesting depth.
    struct SavepointSQL {
        let open: String
        let release: String
        let rollBack: String

        init(depth: Int) {
            let name = "shared_state_sp_\(depth)"
            open = "SAVEPOINT \(name)"
            release = "RELEASE \(name)"
            rollBack = "ROLLBACK TO \(name)"
        }
    }

    /// An open savepoint: its statements, and the change-capture mark where it began.
    struct OpenSavepoint {
        let sql: SavepointSQL
        let changeMark: Int
    }

    /// Opens a savepoint with a name unique among the open ones and marks change capture.
    ///
    /// Savepoints nest: close them (``release(_:)`` or ``rollBack(_:)``) innermost first.
    /// - Parameter reportingChanges: Whether its changes will be asked for: a write session records only the
    ///   changes such savepoints enclose.
    func openSavepoint(reportingChanges: Bool = false) throws -> OpenSavepoint {
        // Outside a transaction no savepoint is open, whatever an interrupted caller left counted.
        if !isInTransaction { savepointDepth = 0 }
        if savepointSQL.count <= savepointDepth { savepointSQL.append(SavepointSQL(depth: savepointSQL.count + 1)) }
        let sql = savepointSQL[savepointDepth]
        try execute(sql.open)
        savepointDepth += 1
        changeRecorder?.beginSavepoint(reporting: reportingChanges)
        return OpenSavepoint(sql: sql, changeMark: changeRecorder?.mark ?? 0)
    }

    /// Releases a savepoint: its changes join the enclosing transaction.
    func release(_ savepoint: OpenSavepoint) throws {
        changeRecorder?.releaseSavepoint()
        savepointDepth = max(0, savepointDepth - 1)
        try execute(savepoint.sql.release)
    }

    /// Rolls a savepoint back and closes it, dropping its recorded changes.
    ///
    /// Errors are not thrown: if `ROLLBACK TO` fails, the enclosing transaction is already gone
    /// (callers check ``isInTransaction``), and the caller is reporting the error that caused the
    /// rollback.
    func rollBack(_ savepoint: OpenSavepoint) {
        changeRecorder?.rollbackSavepoint()
        savepointDepth = max(0, savepointDepth - 1)
        try? execute(savepoint.sql.rollBack)
        try? execute(savepoint.sql.release)
    }

    /// The slot of ``recentStatements`` for `sql`: from the address of its UTF-8 bytes.
    private func recentSlot(_ sql: String) -> Int? {
        sql.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.baseAddress.map { (Int(bitPattern: $0) >> 4) & 63 }
        } ?? nil
    }

    /// The prepared statement for `sql`, if this connection has one.
    private func cached(_ sql: String) -> Statement? {
        let slot = recentSlot(sql)
        if let slot, let recent = recentStatements[slot], recent.sql == sql { return recent.statement }
        guard let statement = statementCache[sql] else { return nil }
        if let slot { recentStatements[slot] = (sql, statement) }
        return statement
    }

    private func cache(_ statement: Statement, for sql: String) {
        statementCache[sql] = statement
        if let slot = recentSlot(sql) { recentStatements[slot] = (sql, statement) }
    }

    private func cachedStatement(_ sql: String) throws -> Statement {
        if let cached = cached(sql) { return cached }
        let (prepared, rest) = try Statement.prepare(Substring(sql).utf8, in: self, persistent: true)
        guard let statement = prepared, Statement.isBlank(rest) else {
            throw SQLiteError(extendedCode: SQLITE_ERROR, message: "a query must be exactly one statement",
                              sql: sql, path: path)
        }
        cache(statement, for: sql)
        return statement
    }
}

@available(*, unavailable)
extension Database: Sendable {}

extension Statement {
    /// Whether SQL text is only whitespace and `;` (comments count as content, harmlessly).
    static func isBlank(_ sql: Substring.UTF8View) -> Bool {
        sql.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0x3B }
    }
}
