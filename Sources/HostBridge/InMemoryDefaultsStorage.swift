import Foundation

/// A ``DefaultsStorage`` that keeps one suite's values in memory; for tests and previews.
public final class InMemoryDefaultsStorage: DefaultsStorage, @unchecked Sendable {
    // @unchecked Sendable: `values` is only read or written while holding `lock`.
    private let lock = NSLock()
    private var values: [String: Any]

    /// Creates a suite holding `values` (which must already be normalised property-list values).
    public init(_ values: [String: Any] = [:]) {
        self.values = values
    }

    public func object(forKey key: String) -> Any? {
        lock.withLock { values[key] }
    }

    public func set(_ value: Any, forKey key: String) {
        lock.withLock { values[key] = value }
    }

    public func removeObject(forKey key: String) {
        _ = lock.withLock { values.removeValue(forKey: key) }
    }

    public func dictionaryRepresentation() -> [String: Any] {
        lock.withLock { values }
    }
}
