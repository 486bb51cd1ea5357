import Foundation

/// A statement parameter, sent to the server in binary format with its length, never as a C string.
///
/// Text goes as its UTF-8 bytes with their count, so a NUL byte reaches the server, which refuses it
/// (`22021`), rather than silently cutting the value short as a C string would. Integers and doubles go as
/// their exact binary forms (`int8`, `float8`), never through decimal text.
///
/// See [PQexecParams](https://www.postgresql.org/docs/15/libpq-exec.html#LIBPQ-PQEXECPARAMS).
public enum PostgresValue: Sendable, Hashable {
    case null
    /// A NULL of type `text`: a nullable text column's parameter keeps one type (and so one prepared statement)
    /// whether or not it holds a value.
    case nullText
    case text(String)
    case integer(Int64)
    case double(Double)
    case boolean(Bool)
    case bytes([UInt8])
    /// A one-dimensional `text[]`; a nil element is a NULL. Each element goes by length, like ``text(_:)``.
    case textArray([String?])
    /// A one-dimensional `int8[]`; a nil element is a NULL.
    case integerArray([Int64?])
    /// A one-dimensional `float8[]`; a nil element is a NULL.
    case doubleArray([Double?])
    /// A one-dimensional `bytea[]`; a nil element is a NULL.
    case bytesArray([[UInt8]?])

    /// `value` as text, or a `text` NULL.
    public static func text(orNull value: String?) -> PostgresValue { value.map(PostgresValue.text) ?? .nullText }

    /// A date as `float8` seconds since 1970-01-01 UTC, the way the SQLite stores keep dates.
    public static func seconds(_ date: Date) -> PostgresValue { .double(date.timeIntervalSince1970) }

    /// The parameter's type OID (`pg_type.oid`), so the server never has to guess it; 0 (unspecified) for NULL.
    var typeOID: UInt32 {
        switch self {
        case .null: 0
        case .text, .nullText: 25  // text
        case .integer: 20  // int8
        case .double: 701  // float8
        case .boolean: 16  // bool
        case .bytes: 17    // bytea
        case .textArray: 1009  // text[]
        case .integerArray: 1016  // int8[]
        case .doubleArray: 1022  // float8[]
        case .bytesArray: 1001  // bytea[]
        }
    }

    /// The binary wire form, or nil for NULL.
    var binary: [UInt8]? {
        switch self {
        case .null, .nullText: nil
        case .text(let string): Array(string.utf8)
        case .integer(let value): withUnsafeBytes(of: value.bigEndian, Array.init)
        case .double(let value): withUnsafeBytes(of: value.bitPattern.bigEndian, Array.init)
        case .boolean(let value): [value ? 1 : 0]
        case .bytes(let bytes): bytes
        case .textArray(let items): Self.arrayBinary(items.map { $0.map(PostgresValue.text) }, element: 25)
        case .integerArray(let items): Self.arrayBinary(items.map { $0.map(PostgresValue.integer) }, element: 20)
        case .doubleArray(let items): Self.arrayBinary(items.map { $0.map(PostgresValue.double) }, element: 701)
        case .bytesArray(let items): Self.arrayBinary(items.map { $0.map(PostgresValue.bytes) }, element: 17)
        }
    }
}

/// One result row, copied out of libpq's result: each column's text form (PostgreSQL's text output) or nil
/// for NULL, read by length.
///
/// Reading is strict: a column that does not parse as the type asked for reads as nil, never as a part of it.
public struct PostgresRow: Sendable, Hashable {
    /// The result's column names, in order.
    public let columnNames: [String]
    /// Each column's text, nil for NULL.
    public let values: [String?]

    /// The text of `column`, nil when it is NULL or there is no such column.
    public func string(_ column: String) -> String? {
        columnNames.firstIndex(of: column).flatMap { values[$0] }
    }

    /// `column` as an `Int64`, from `int2`/`int4`/`int8` or a whole `numeric` (what `sum` of integers gives).
    public func int64(_ column: String) -> Int64? { string(column).flatMap { Int64($0) } }

    /// `column` as an `Int`.
    public func int(_ column: String) -> Int? { string(column).flatMap { Int($0) } }

    /// `column` as a `Double`, from `float8`'s text, which since PostgreSQL 12 is the shortest exact form.
    public func double(_ column: String) -> Double? {
        guard let text = string(column) else { return nil }
        switch text {
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        case "NaN": return .nan
        default: return Double(text)
        }
    }

    /// `column` as a `Bool`, from `bool`'s text (`t` or `f`).
    public func bool(_ column: String) -> Bool? {
        switch string(column) {
        case "t": true
        case "f": false
        default: nil
        }
    }

    /// `column` as a date, from `float8` seconds since 1970-01-01 UTC.
    public func date(_ column: String) -> Date? { double(column).map(Date.init(timeIntervalSince1970:)) }
}
