import Foundation

/// A Swift type that can be bound to a statement parameter and read back from a column.
///
/// Conversions follow SQLite's storage classes: integers and `Bool` as INTEGER, `Double` as
/// REAL, `String` as TEXT, `Data` as BLOB, `Date` as REAL seconds since 1970-01-01 UTC, and
/// `nil` as NULL. Reading is strict: a TEXT column does not turn into an `Int`.
public protocol SQLValueConvertible {
    /// The value to bind.
    var sqlValue: SQLValue { get }
    /// Reads the value back; `nil` when the stored value has another storage class.
    init?(sqlValue: SQLValue)
}

extension SQLValue: SQLValueConvertible {
    public var sqlValue: SQLValue { self }
    public init?(sqlValue: SQLValue) { self = sqlValue }
}

extension Int64: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(self) }
    public init?(sqlValue: SQLValue) {
        guard case .integer(let value) = sqlValue else { return nil }
        self = value
    }
}

extension Int: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    public init?(sqlValue: SQLValue) {
        guard case .integer(let value) = sqlValue, let exact = Int(exactly: value) else { return nil }
        self = exact
    }
}

extension Double: SQLValueConvertible {
    public var sqlValue: SQLValue { .real(self) }
    /// Also accepts INTEGER, which SQLite returns for whole REAL values in some expressions.
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

extension Bool: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    /// Any non-zero INTEGER reads as `true`, as in SQL.
    public init?(sqlValue: SQLValue) {
        guard case .integer(let value) = sqlValue else { return nil }
        self = value != 0
    }
}

extension String: SQLValueConvertible {
    public var sqlValue: SQLValue { .text(self) }
    public init?(sqlValue: SQLValue) {
        guard case .text(let value) = sqlValue else { return nil }
        self = value
    }
}

extension Data: SQLValueConvertible {
    public var sqlValue: SQLValue { .blob(self) }
    public init?(sqlValue: SQLValue) {
        guard case .blob(let value) = sqlValue else { return nil }
        self = value
    }
}

extension Date: SQLValueConvertible {
    public var sqlValue: SQLValue { .real(timeIntervalSince1970) }
    public init?(sqlValue: SQLValue) {
        guard let seconds = Double(sqlValue: sqlValue) else { return nil }
        self = Date(timeIntervalSince1970: seconds)
    }
}

extension Optional: SQLValueConvertible where Wrapped: SQLValueConvertible {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
    /// NULL reads as `.some(nil)`; another storage class the wrapped type refuses reads as `nil`.
    public init?(sqlValue: SQLValue) {
        if case .null = sqlValue {
            self = .none
        } else if let value = Wrapped(sqlValue: sqlValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
}
