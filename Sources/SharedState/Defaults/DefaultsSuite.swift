import Foundation

/// A `UserDefaults`-shaped suite of keys stored in an App Group container.
///
/// Values are ``PropertyListValue``s and keep their exact type on disk. Every write is its own
/// durable transaction, unless it goes through the `in:` variants, which join a transaction the
/// caller already holds (interactive intents write inside the engine's transaction this way).
/// Reads use the store's reader pool and see every write that has returned.
///
/// The non-throwing methods mirror `UserDefaults`; errors they cannot throw go to the
/// container's failure handler (see ``DefaultsFailure``). Typed getters convert the way
/// Foundation's `UserDefaults` does (see `DefaultsSuite+Conversions.swift`).
public final class DefaultsSuite: Sendable {
    /// The container the suite's keys live in.
    public let container: AppGroupContainer
    /// The suite name (the group identifier for the group's standard suite).
    public let name: String

    init(container: AppGroupContainer, name: String) {
        self.container = container
        self.name = name
    }

    // MARK: Throwing API

    /// Stores `value` for `key` in its own transaction, or removes the key when `value` is `nil`.
    ///
    /// - Throws: ``SQLiteError`` when the write fails; the previous value is then kept.
    public func write(_ value: PropertyListValue?, forKey key: String) throws {
        try container.store.write { db in try set(value, forKey: key, in: db) }
    }

    /// Reads the value stored for `key`.
    ///
    /// - Returns: The value, or `nil` when the key does not exist.
    /// - Throws: ``SQLiteError`` when the read fails.
    public func readValue(forKey key: String) throws -> PropertyListValue? {
        try container.store.read { db in try value(forKey: key, in: db) }
    }

    /// Stores `value` for `key` inside the caller's ongoing write transaction.
    ///
    /// - Parameters:
    ///   - value: The value; `nil` removes the key.
    ///   - key: The key.
    ///   - db: The writer connection of this suite's container, inside a
    ///     ``DatabaseStore/write(_:)`` or ``DatabaseStore/writeCapturingChanges(_:)`` closure.
    /// - Throws: ``SQLiteError``.
    public func set(_ value: PropertyListValue?, forKey key: String, in db: Database) throws {
        guard let value else {
            try db.execute(DefaultsTable.deleteSQL, [.text(name), .text(key)])
            return
        }
        try db.execute(DefaultsTable.upsertSQL, [.text(name), .text(key), .text(value.storageType), value.storageValue])
    }

    /// Stores a Foundation value for `key` inside the caller's ongoing write transaction.
    ///
    /// - Throws: ``NotAPropertyListError`` (nothing is written), or ``SQLiteError``.
    public func set(_ value: Any?, forKey key: String, in db: Database) throws {
        try set(try value.map { try PropertyListValue(any: $0) }, forKey: key, in: db)
    }

    /// Removes `key` inside the caller's ongoing write transaction.
    ///
    /// - Throws: ``SQLiteError``.
    public func removeObject(forKey key: String, in db: Database) throws {
        try set(nil as PropertyListValue?, forKey: key, in: db)
    }

    /// Reads the value of `key` on a connection the caller holds (reader or writer).
    ///
    /// - Returns: The value, or `nil` when the key does not exist or its stored form does not
    ///   decode (a file edited by hand).
    /// - Throws: ``SQLiteError``.
    public func value(forKey key: String, in db: Database) throws -> PropertyListValue? {
        guard let row = try db.queryOne(DefaultsTable.selectSQL, [.text(name), .text(key)]),
              let type = row.string("type"), let stored = row["value"] else { return nil }
        return PropertyListValue(storageType: type, value: stored)
    }

    /// Every key of the suite and its value, on a connection the caller holds.
    ///
    /// - Throws: ``SQLiteError``.
    public func values(in db: Database) throws -> [String: PropertyListValue] {
        var result: [String: PropertyListValue] = [:]
        for row in try db.query(DefaultsTable.selectSuiteSQL, [.text(name)]) {
            guard let key = row.string("key"), let type = row.string("type"), let stored = row["value"],
                  let value = PropertyListValue(storageType: type, value: stored) else { continue }
            result[key] = value
        }
        return result
    }

    // MARK: UserDefaults-shaped API

    /// Stores a Foundation value (`UserDefaults.set(_:forKey:)`); `nil` removes the key.
    ///
    /// A value that is not a property list is not stored: the failure handler receives a
    /// ``NotAPropertyListError`` and the previous value stays (Foundation would crash).
    public func set(_ value: Any?, forKey key: String) {
        do {
            let converted = try value.map { try PropertyListValue(any: $0) }
            perform(converted == nil ? .remove : .write, key) { try write(converted, forKey: key) }
        } catch {
            report(.write, key, error)
        }
    }

    /// Stores a typed value for `key`.
    public func set(_ value: PropertyListValue, forKey key: String) {
        perform(.write, key) { try write(value, forKey: key) }
    }

    /// Stores an integer for `key`.
    public func set(_ value: Int, forKey key: String) { set(.integer(value), forKey: key) }
    /// Stores a double for `key`.
    public func set(_ value: Double, forKey key: String) { set(.double(value), forKey: key) }
    /// Stores a float for `key`, as a double.
    public func set(_ value: Float, forKey key: String) { set(.double(Double(value)), forKey: key) }
    /// Stores a Boolean for `key`.
    public func set(_ value: Bool, forKey key: String) { set(.bool(value), forKey: key) }
    /// Stores a string for `key`.
    public func set(_ value: String, forKey key: String) { set(.string(value), forKey: key) }
    /// Stores data for `key`.
    public func set(_ value: Data, forKey key: String) { set(.data(value), forKey: key) }
    /// Stores a date for `key`.
    public func set(_ value: Date, forKey key: String) { set(.date(value), forKey: key) }

    /// Stores a URL for `key` (a file URL as its path, others as their absolute string, as
    /// Apple documents); `nil` removes the key.
    public func set(_ url: URL?, forKey key: String) {
        guard let url else { return removeObject(forKey: key) }
        set(PropertyListValue(url: url), forKey: key)
    }

    /// Removes `key` (`UserDefaults.removeObject(forKey:)`).
    public func removeObject(forKey key: String) {
        perform(.remove, key) { try write(nil, forKey: key) }
    }

    /// The typed value of `key`, or `nil` when it is missing (or could not be read).
    public func value(forKey key: String) -> PropertyListValue? {
        perform(.read, key) { try readValue(forKey: key) } ?? nil
    }

    /// The Foundation value of `key` (`UserDefaults.object(forKey:)`): `String`, `Int`,
    /// `Double`, `Bool`, `Data`, `Date`, `[Any]` or `[String: Any]`.
    public func object(forKey key: String) -> Any? {
        value(forKey: key)?.foundationValue
    }

    /// Every key of the suite and its Foundation value (`UserDefaults.dictionaryRepresentation()`).
    ///
    /// Unlike Foundation, only this suite's keys: there is no global or registration domain.
    public func dictionaryRepresentation() -> [String: Any] {
        let stored = perform(.list, "") { try container.store.read { db in try self.values(in: db) } }
        return (stored ?? [:]).mapValues(\.foundationValue)
    }

    private func perform<T>(_ operation: DefaultsFailure.Operation, _ key: String, _ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            report(operation, key, error)
            return nil
        }
    }

    private func report(_ operation: DefaultsFailure.Operation, _ key: String, _ error: any Error) {
        container.failureHandler(DefaultsFailure(suite: name, key: key, operation: operation, underlying: error))
    }
}
