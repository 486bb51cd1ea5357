/// The key-value storage behind one App Group suite, implemented by the host.
///
/// ``UserDefaults`` hands this protocol only property-list values, already normalised: `String`,
/// `Bool`, `Int`, `Double`, `Date`, `Data`, `[Any]` and `[String: Any]` (arrays and dictionaries
/// contain only these types too). Implementations must be safe to call from any thread.
public protocol DefaultsStorage: Sendable {
    /// Returns the value stored for `key`, or `nil` when there is none.
    func object(forKey key: String) -> Any?

    /// Stores a normalised property-list value for `key`, replacing any previous value.
    func set(_ value: Any, forKey key: String)

    /// Removes the value stored for `key`; does nothing when there is none.
    func removeObject(forKey key: String)

    /// Returns every key and value in the suite.
    func dictionaryRepresentation() -> [String: Any]

    /// Makes pending writes durable; returns whether that succeeded.
    ///
    /// The default implementation does nothing and returns `true`, as Apple's `synchronize()` is
    /// documented to be unnecessary.
    func synchronize() -> Bool
}

extension DefaultsStorage {
    /// Does nothing and returns `true`.
    public func synchronize() -> Bool { true }
}
