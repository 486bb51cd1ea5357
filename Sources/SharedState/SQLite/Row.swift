import Foundation

/// One result row, copied out of SQLite: safe to keep, and to send to another thread.
///
/// Columns are looked up by name, as the `SELECT` spelled them (`AS` aliases included).
/// Typed accessors return `nil` both for NULL and for a value of another storage class;
/// use the `SQLValue` subscript to tell those apart.
public struct Row: Sendable, Hashable {
    /// The column names, in result order.
    public let columnNames: [String]
    /// The values, in the same order as ``columnNames``.
    public let values: [SQLValue]

    /// Creates a row from column names and values of the same count.
    public init(columnNames: [String], values: [SQLValue]) {
        precondition(columnNames.count == values.count, "a Row needs one value per column")
        self.columnNames = columnNames
        self.values = values
    }

    /// The raw value of `column`, or `nil` when the row has no such column.
    public subscript(_ column: String) -> SQLValue? {
        columnNames.firstIndex(of: column).map { values[$0] }
    }

    /// The value of `column` converted to `T`, or `nil` for NULL, a missing column, or another type.
    ///
    /// - Parameters:
    ///   - column: The column name.
    ///   - type: The Swift type to read, usually inferred.
    public func value<T: SQLValueConvertible>(_ column: String, as type: T.Type = T.self) -> T? {
        self[column].flatMap { T(sqlValue: $0) }
    }

    /// The INTEGER value of `column` as an `Int`.
    public func int(_ column: String) -> Int? { value(column) }
    /// The INTEGER value of `column`.
    public func int64(_ column: String) -> Int64? { value(column) }
    /// The REAL (or INTEGER) value of `column` as a `Double`.
    public func double(_ column: String) -> Double? { value(column) }
    /// The INTEGER value of `column` as a `Bool` (non-zero is `true`).
    public func bool(_ column: String) -> Bool? { value(column) }
    /// The TEXT value of `column`.
    public func string(_ column: String) -> String? { value(column) }
    /// The BLOB value of `column`.
    public func data(_ column: String) -> Data? { value(column) }
    /// The REAL value of `column` read as seconds since 1970, the way `Date` binds.
    public func date(_ column: String) -> Date? { value(column) }
}
