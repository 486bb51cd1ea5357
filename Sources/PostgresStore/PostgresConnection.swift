import CLibPQ
import Foundation

/// One PostgreSQL connection: the single owner of a libpq `PGconn`, closed in `deinit`.
///
/// A `PostgresConnection` is not thread-safe. You receive one inside ``PostgresPool/transaction(_:)`` or
/// ``PostgresPool/withConnection(_:)``, which guarantee one thread uses it at a time; do not let it escape.
///
/// Statements with parameters are prepared once per SQL text (and parameter types) and kept for the life of
/// the connection. Values are always parameters (`$1`, `$2`, …) sent in binary with their lengths
/// (``PostgresValue``), never interpolated into SQL.
///
/// See [libpq](https://www.postgresql.org/docs/15/libpq.html).
public final class PostgresConnection {
    private let handle: OpaquePointer
    /// Prepared statement names by SQL text and parameter types.
    private var prepared: [String: String] = [:]
    /// Set once a call found the connection gone, which libpq does not always note in `PQstatus` at once.
    private var lost = false

    /// Connects, blocking until the server answers or `connect_timeout` (3 s unless the string says) passes.
    ///
    /// - Parameter connectionString: A `postgres://` URL or `key=value` string, as libpq reads it.
    /// - Throws: ``PostgresError`` `.badConnectionString`, `.unavailable` when no server answers, or
    ///   `.clientLibraryMissing` when libpq cannot be loaded.
    ///
    /// See [PQconnectdbParams](https://www.postgresql.org/docs/15/libpq-connect.html).
    public init(connectionString: String) throws {
        try Self.validateConnectionString(connectionString)
        let keywords = ["connect_timeout", "application_name", "dbname"]
        let values = ["3", "widgethost", connectionString]
        let connection = Self.withCStrings(keywords) { keywordPointers in
            Self.withCStrings(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let connection else {
            throw PostgresError(kind: .unavailable, message: "libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.text(PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(kind: .unavailable, message: message)
        }
        handle = connection
        // libpq prints notices (`CREATE TABLE IF NOT EXISTS` skipping one) to standard error by default; they are
        // not errors, and a daemon's standard error is for its own log lines.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// Whether the connection is known to be gone (a pool drops such connections).
    public var isBroken: Bool { lost || PQstatus(handle) != CONNECTION_OK }

    /// Whether a transaction block is open (or failed and not yet rolled back) on this connection.
    public var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Runs SQL that returns no rows (or whose rows are ignored).
    ///
    /// Without parameters `sql` may hold several statements separated by `;` (migrations); with parameters
    /// it must hold exactly one.
    /// - Returns: The number of rows the statement inserted, updated or deleted (0 for other statements).
    /// - Throws: ``PostgresError``.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [PostgresValue] = [], function: String = #function) throws -> Int {
        let result = try run(sql, parameters, function: function)
        defer { PQclear(result) }
        return Int(Self.text(PQcmdTuples(result))) ?? 0
    }

    /// Runs a query and copies out every row.
    /// - Throws: ``PostgresError``.
    public func query(_ sql: String, _ parameters: [PostgresValue] = [],
                      function: String = #function) throws -> [PostgresRow] {
        let result = try run(sql, parameters, function: function)
        defer { PQclear(result) }
        let columns = PQnfields(result)
        let names = (0..<columns).map { Self.text(PQfname(result, $0)) }
        return (0..<PQntuples(result)).map { row in
            PostgresRow(columnNames: names, values: (0..<columns).map { column in
                guard PQgetisnull(result, row, column) == 0, let value = PQgetvalue(result, row, column) else {
                    return nil
                }
                let length = Int(PQgetlength(result, row, column))
                return value.withMemoryRebound(to: UInt8.self, capacity: length) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                }
            })
        }
    }

    /// Runs a query and returns its first row, if any.
    public func queryOne(_ sql: String, _ parameters: [PostgresValue] = [],
                         function: String = #function) throws -> PostgresRow? {
        try query(sql, parameters, function: function).first
    }

    /// Runs one statement: prepared (and cached) when it has parameters, through the simple protocol otherwise.
    private func run(_ sql: String, _ parameters: [PostgresValue], function: String) throws -> OpaquePointer {
        if parameters.isEmpty {
            return try check(PQexec(handle, sql), sql: sql, function: function)
        }
        let types = parameters.map(\.typeOID)
        let key = types.map(String.init).joined(separator: ",") + "|" + sql
        let name: String
        if let known = prepared[key] {
            name = known
        } else {
            name = "widgethost_\(prepared.count + 1)"
            let result = try types.withUnsafeBufferPointer { typePointer in
                try check(PQprepare(handle, name, sql, Int32(parameters.count), typePointer.baseAddress),
                          sql: sql, function: function)
            }
            PQclear(result)
            prepared[key] = name
        }
        // One buffer holds every value; each parameter points into it and says its length.
        var buffer: [UInt8] = []
        var offsets: [Int?] = []
        var lengths: [Int32] = []
        for parameter in parameters {
            if let bytes = parameter.binary {
                offsets.append(buffer.count)
                buffer += bytes
                lengths.append(Int32(bytes.count))
            } else {
                offsets.append(nil)
                lengths.append(0)
            }
        }
        buffer.append(0)  // A zero-length last value still points inside the buffer.
        let formats = [Int32](repeating: 1, count: parameters.count)
        let result = buffer.withUnsafeBufferPointer { bytes in
            let base = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in offset.map { base + $0 } }
            return PQexecPrepared(handle, name, Int32(parameters.count), pointers, lengths, formats, 0)
        }
        do {
            return try check(result, sql: sql, function: function)
        } catch let error as PostgresError where error.kind == .unavailable {
            prepared.removeAll()  // A new session has none of them.
            throw error
        }
    }

    /// The one checker of libpq results: passes a command or query result, turns anything else into a
    /// ``PostgresError`` (clearing the result).
    private func check(_ result: OpaquePointer?, sql: String?, function: String) throws -> OpaquePointer {
        guard let result else {
            lost = lost || PQstatus(handle) != CONNECTION_OK
            throw PostgresError(kind: lost ? .unavailable : .server, message: Self.text(PQerrorMessage(handle)),
                                sql: sql, function: function)
        }
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK { return result }
        defer { PQclear(result) }
        let sqlState = PQresultErrorField(result, clibpq_field_sqlstate()).map { Self.text($0) }
        let message = PQresultErrorField(result, clibpq_field_primary_message()).map { Self.text($0) }
            ?? Self.text(PQerrorMessage(handle))
        // The server gives every error it reports a SQLSTATE; one without is libpq's own: the connection broke.
        if sqlState == nil || PostgresError.meansConnectionLoss(sqlState) || isBroken { lost = true }
        throw PostgresError(kind: lost ? .unavailable : .server, sqlState: sqlState, message: message, sql: sql,
                            function: function)
    }

    /// Refuses a connection string libpq cannot parse, with libpq's reason (which never repeats a password).
    ///
    /// The first libpq call of a pool and of a connection, so it loads libpq (opened on first use, not linked).
    static func validateConnectionString(_ connectionString: String) throws {
        try loadClientLibrary()
        guard !connectionString.utf8.contains(0) else {
            throw PostgresError(kind: .badConnectionString, message: "the connection string holds a NUL byte")
        }
        var error: UnsafeMutablePointer<CChar>?
        if let options = PQconninfoParse(connectionString, &error) {
            PQconninfoFree(options)
            return
        }
        let message = error.map { text($0) } ?? "the connection string cannot be parsed"
        if let error { PQfreemem(error) }
        throw PostgresError(kind: .badConnectionString, message: message)
    }

    /// Opens libpq unless it is open: ``PostgresError/Kind/clientLibraryMissing`` names the library and what failed.
    static func loadClientLibrary() throws {
        var error = [CChar](repeating: 0, count: 512)
        guard clibpq_load(&error, error.count) != 0 else { return }
        throw PostgresError(kind: .clientLibraryMissing, message: text(error))
    }

    /// libpq's NUL-terminated messages and names, trimmed of their trailing newline.
    static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        var text = String(cString: pointer)
        while text.last == "\n" { text.removeLast() }
        return text
    }

    private static func withCStrings<T>(_ strings: [String],
                                        _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return body(copies.map { UnsafePointer($0) } + [nil])
    }
}

@available(*, unavailable)
extension PostgresConnection: Sendable {}
