import CLibPQ

/// An error from PostgreSQL or from talking to it, with what is needed to understand it without a debugger.
///
/// Every libpq call in PostgresStore that can fail goes through one checker (``PostgresConnection``'s
/// `check`), which turns a failed result into one of these: its ``kind``, the server's SQLSTATE when the
/// server answered, the server's (or libpq's) own message, the SQL being run, and the Swift function that
/// called libpq. Parameter values and the connection string (which may hold a password) are never part of
/// the error, so secrets stay out of logs.
///
/// See [PostgreSQL Error Codes](https://www.postgresql.org/docs/15/errcodes-appendix.html).
public struct PostgresError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, as far as a caller needs to tell.
    public enum Kind: String, Sendable, Equatable {
        /// The server ran the statement and refused it (a constraint, a syntax error, a bad value): see
        /// ``PostgresError/sqlState``.
        case server
        /// The connection was lost, or could not be made: the server is down, restarting or unreachable.
        /// A transaction that had not sent its `COMMIT` was rolled back and may be retried.
        case unavailable
        /// The connection was lost while `COMMIT` was in flight: the transaction may or may not have been
        /// committed. Never retried automatically, since running it again could apply it twice.
        case commitOutcomeUnknown
        /// The connection string cannot be parsed.
        case badConnectionString
        /// libpq (`libpq.so.5`, Debian's `libpq5`) is not installed, or lacks a function PostgresStore calls: it is
        /// opened on first use rather than linked, so a process that uses no PostgreSQL does not need it.
        case clientLibraryMissing
    }

    /// What went wrong.
    public let kind: Kind
    /// The server's five-character SQLSTATE (`23505` unique violation, `40001` serialization failure), when
    /// the server answered.
    public let sqlState: String?
    /// The server's primary message, or libpq's.
    public let message: String
    /// The SQL statement that failed, when the failure concerns one.
    public let sql: String?
    /// The Swift function that called libpq (`#function` at the call site).
    public let function: String

    /// Creates an error from its parts; PostgresStore creates most of these itself.
    public init(kind: Kind, sqlState: String? = nil, message: String, sql: String? = nil,
                function: String = #function) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.sql = sql
        self.function = function
    }

    /// Whether running the whole transaction again may succeed: a serialization failure (`40001`) or a
    /// deadlock (`40P01`) the server chose this transaction to lose.
    public var isTransient: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// Whether the server refused the statement for a duplicate key (`23505`): a unique constraint it would break.
    public var isUniqueViolation: Bool { sqlState == "23505" }

    /// Whether the server is down or unreachable (a request failing for this is answered with 503).
    public var isUnavailable: Bool { kind == .unavailable || kind == .commitOutcomeUnknown }

    /// Whether a SQLSTATE says the connection is gone: class 08 (connection exception), or the server
    /// shutting down or not yet accepting connections (`57P01`, `57P02`, `57P03`).
    static func meansConnectionLoss(_ sqlState: String?) -> Bool {
        guard let sqlState else { return false }
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
    }

    public var description: String {
        var text = "PostgreSQL error"
        if let sqlState { text += " \(sqlState)" }
        text += " (\(kind.rawValue)): \(message)"
        if let sql { text += " — SQL: \(sql)" }
        text += " — in \(function)"
        return text
    }
}
