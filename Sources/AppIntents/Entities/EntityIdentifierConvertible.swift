import Foundation

/// An entity identifier that converts to and from a string, which is how widget configurations
/// store it.
///
/// Implement ``entityIdentifierString`` and either ``entityIdentifier(for:)`` or
/// ``init(entityIdentifierString:)``; each has a default that calls the other. `String`, `Int` and
/// `UUID` conform already.
///
/// Mirrors [EntityIdentifierConvertible](https://developer.apple.com/documentation/appintents/entityidentifierconvertible).
public protocol EntityIdentifierConvertible {
    /// The identifier as a string; keep it to 4096 characters or fewer.
    var entityIdentifierString: String { get }

    /// Parses an identifier from its string form; `nil` when the string is not one.
    static func entityIdentifier(for entityIdentifierString: String) -> Self?

    /// Parses an identifier from its string form; `nil` when the string is not one.
    init?(entityIdentifierString: String)
}

extension EntityIdentifierConvertible {
    public static func entityIdentifier(for entityIdentifierString: String) -> Self? {
        Self(entityIdentifierString: entityIdentifierString)
    }

    public init?(entityIdentifierString: String) {
        guard let identifier = Self.entityIdentifier(for: entityIdentifierString) else { return nil }
        self = identifier
    }
}

extension String: EntityIdentifierConvertible {
    /// The string itself.
    public var entityIdentifierString: String { self }

    /// The string itself; never fails.
    public init?(entityIdentifierString: String) {
        self = entityIdentifierString
    }
}

extension Int: EntityIdentifierConvertible {
    /// The decimal digits of the integer.
    public var entityIdentifierString: String { String(self) }

    /// Parses decimal digits; fails on anything else.
    public init?(entityIdentifierString: String) {
        self.init(entityIdentifierString)
    }
}

extension UUID: EntityIdentifierConvertible {
    /// The UUID's canonical upper-case string.
    public var entityIdentifierString: String { uuidString }

    /// Parses a UUID string; fails on anything else.
    public init?(entityIdentifierString: String) {
        self.init(uuidString: entityIdentifierString)
    }
}
