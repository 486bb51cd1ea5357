import Foundation

/// An App Group container: the state a widget extension and its app share, in one SQLite file.
///
/// On iOS, an App Group gives a shared directory and `UserDefaults(suiteName: "group.…")`.
/// Here a container is the database `<dataDirectory>/<identifier>.sqlite`, opened as a
/// ``DatabaseStore``; its defaults suites (``suite(named:)``) live in one table of it, and
/// callers may add their own tables through their own ``Migrator``.
///
/// Identifiers become file names, so they are validated: 1 to
/// ``maximumIdentifierByteCount`` bytes of `A-Z a-z 0-9 . - _`, not starting with a dot.
/// `group.com.example.shared` is fine; `../x`, `a/b`, `""`, `.hidden`, `gr oup` and `grüppe`
/// are refused with ``ContainerError/invalidIdentifier(_:_:)``. The `group.` prefix Apple
/// requires is not enforced, so tests may use short names.
public final class AppGroupContainer: Sendable {
    /// The longest identifier, in bytes: a file name holds 255 bytes on Linux file systems, and
    /// SQLite needs room for `.sqlite-journal` (15 bytes) after the identifier (it creates a
    /// rollback journal while switching a new file to WAL, then `-wal` and `-shm` files).
    public static let maximumIdentifierByteCount = 240

    /// The App Group identifier.
    public let identifier: String
    /// The database holding the container's state.
    public let store: DatabaseStore
    /// The directory for files the app keeps in the group itself, `<dataDirectory>/<identifier>/` (what
    /// `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)` answers); created on first use by
    /// ``makeDirectory()``. Nil for an in-memory container.
    public let directory: URL?
    /// Receives failures of the non-throwing, `UserDefaults`-shaped suite methods.
    let failureHandler: @Sendable (DefaultsFailure) -> Void

    /// Opens (creating if needed) the container `identifier` under `dataDirectory`.
    ///
    /// Creates the directory if it does not exist, opens `<identifier>.sqlite` in WAL mode
    /// and applies the container's migrations.
    ///
    /// - Parameters:
    ///   - identifier: The App Group identifier, e.g. `group.com.example.shared`.
    ///   - dataDirectory: Where container files live.
    ///   - synchronous: Durability of commits (`full` by default: acknowledged writes survive
    ///     a crash or power loss).
    ///   - onFailure: Receives errors the non-throwing suite methods cannot throw (see
    ///     ``DefaultsFailure``); by default they are written to standard error.
    /// - Throws: ``ContainerError`` for a bad identifier or directory, ``SQLiteError`` when
    ///   the database cannot be opened (e.g. `SQLITE_NOTADB` when the file is not a database;
    ///   the file is then left untouched).
    public init(identifier: String, dataDirectory: URL, synchronous: DatabaseStore.Synchronous = .full,
                onFailure: @escaping @Sendable (DefaultsFailure) -> Void = DefaultsFailure.logToStandardError)
        throws {
        try Self.validate(identifier: identifier)
        do {
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw ContainerError.cannotCreateDirectory(path: dataDirectory.path, reason: error.localizedDescription)
        }
        let file = dataDirectory.appendingPathComponent(identifier + ".sqlite")
        self.identifier = identifier
        self.directory = dataDirectory.appendingPathComponent(identifier, isDirectory: true)
        self.store = try DatabaseStore(path: file.path, configuration: .init(synchronous: synchronous))
        self.failureHandler = onFailure
        try Self.migrator.migrate(store)
    }

    private init(identifier: String, store: DatabaseStore,
                 onFailure: @escaping @Sendable (DefaultsFailure) -> Void) throws {
        self.identifier = identifier
        self.directory = nil
        self.store = store
        self.failureHandler = onFailure
        try Self.migrator.migrate(store)
    }

    /// Creates ``directory`` if it does not exist yet and returns it; nil for an in-memory container.
    ///
    /// Created on first use, not when the container opens, so a data directory holds a group's folder only when
    /// its code asked for one.
    /// - Throws: ``ContainerError/cannotCreateDirectory(path:reason:)``.
    public func makeDirectory() throws -> URL? {
        guard let directory else { return nil }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw ContainerError.cannotCreateDirectory(path: directory.path, reason: error.localizedDescription)
        }
        return directory
    }

    /// Opens a private in-memory container, for tests and dry runs.
    ///
    /// - Parameters:
    ///   - identifier: The App Group identifier (validated like a file-backed one).
    ///   - onFailure: As for ``init(identifier:dataDirectory:synchronous:onFailure:)``.
    /// - Throws: ``ContainerError`` for a bad identifier.
    public static func inMemory(identifier: String,
                                onFailure: @escaping @Sendable (DefaultsFailure) -> Void = DefaultsFailure.logToStandardError)
        throws -> AppGroupContainer {
        try validate(identifier: identifier)
        return try AppGroupContainer(identifier: identifier, store: .inMemory(), onFailure: onFailure)
    }

    /// The container's own migrations; callers' migrations go in their own ``Migrator``.
    static let migrator: Migrator = {
        var migrator = Migrator()
        DefaultsTable.registerMigrations(in: &migrator)
        return migrator
    }()

    /// A defaults suite of this container.
    ///
    /// - Parameter name: The suite name; `nil`, or the group identifier itself, is the group's
    ///   standard suite (what `UserDefaults(suiteName: "group.…")` reads on iOS).
    /// - Returns: A suite; suites are cheap views, not caches, so any number may coexist.
    public func suite(named name: String? = nil) -> DefaultsSuite {
        DefaultsSuite(container: self, name: name ?? identifier)
    }

    /// Checks that `identifier` can name a container.
    ///
    /// - Throws: ``ContainerError/invalidIdentifier(_:_:)`` saying what is wrong.
    public static func validate(identifier: String) throws {
        let bytes = identifier.utf8
        guard !bytes.isEmpty else { throw ContainerError.invalidIdentifier(identifier, .empty) }
        guard bytes.count <= maximumIdentifierByteCount else {
            throw ContainerError.invalidIdentifier(identifier, .tooLong(byteCount: bytes.count))
        }
        guard bytes.first != UInt8(ascii: ".") else { throw ContainerError.invalidIdentifier(identifier, .leadingDot) }
        var offset = 0
        for scalar in identifier.unicodeScalars {
            let allowed = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || scalar == "." || scalar == "-" || scalar == "_")
            guard allowed else {
                throw ContainerError.invalidIdentifier(identifier, .forbiddenCharacter(scalar, byteOffset: offset))
            }
            offset += scalar.utf8.count
        }
    }
}
