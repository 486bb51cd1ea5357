import Foundation
import JSON
import SharedState

/// The engine's persistent state: instances, configurations with their timelines, the reload schedule and the
/// budget ledger, in one SQLite database.
///
/// Every method is one transaction; callers that need several steps to be atomic use ``write(_:)`` with the
/// `Database`-taking variants.
public final class EngineStore: Sendable {
    /// The underlying database.
    public let database: DatabaseStore

    /// The served lists this store has read or interned, by digest (``servedList(configurationKey:_:)``).
    let servedLists = ServedListCache()

    /// The database's ``DatabaseStore/revision``: it moves on with every write transaction, whatever wrote, so
    /// anything derived from the store's instances, configurations and timelines that was read under one revision
    /// may be stale under a later one (see ``TimelineCache``).
    public var revision: UInt64 { database.revision }

    /// Opens (creating if needed) `widgethost.sqlite` in `directory`.
    /// - Throws: `SQLiteError` (a corrupt file is reported, never overwritten).
    public convenience init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try self.init(database: DatabaseStore(path: directory.appendingPathComponent("widgethost.sqlite").path))
    }

    /// Wraps an open database, applying the engine's migrations.
    public init(database: DatabaseStore) throws {
        try EngineSchema.migrator.migrate(database)
        self.database = database
    }

    /// An engine store in memory, for tests.
    public static func inMemory() throws -> EngineStore {
        try EngineStore(database: DatabaseStore.inMemory())
    }

    /// Runs `body` in one write transaction.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try database.write(body)
    }

    /// Runs `body` in one write transaction, like ``write(_:)``, but waits for the writer without blocking a thread
    /// (a write session of the store whose work is synchronous), so that a task that commits off the engine's actor
    /// never holds a thread of the cooperative pool while another write, perhaps one that suspends, holds the
    /// writer. Once the writer is taken, `body`, `COMMIT` and its `fsync` run on the calling task's thread.
    func writeWaiting<T>(_ body: (Database) throws -> T) async throws -> T {
        try await database.withWriteSession { session in try session.withDatabase(body) }
    }

    /// Runs `body` on a read snapshot.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try database.read(body)
    }

    // MARK: Instances

    func insert(_ instance: WidgetInstance, _ db: Database) throws {
        try db.execute("""
            INSERT INTO widget_instances(id, kind, family, raw_parameters, resolution_diagnostics, configuration_key,
                placed_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(instance.id), .text(instance.kind), .text(instance.family),
                  .text(JSONValue.object(instance.rawParameters).canonicalText),
                  .text(EngineCoding.text(instance.resolutionDiagnostics)), .text(instance.configurationKey),
                  instance.placedAt.sqlValue, instance.updatedAt.sqlValue])
    }

    func update(_ instance: WidgetInstance, _ db: Database) throws {
        try db.execute("""
            UPDATE widget_instances SET raw_parameters = ?, resolution_diagnostics = ?, configuration_key = ?,
                updated_at = ? WHERE id = ?
            """, [.text(JSONValue.object(instance.rawParameters).canonicalText),
                  .text(EngineCoding.text(instance.resolutionDiagnostics)), .text(instance.configurationKey),
                  instance.updatedAt.sqlValue, .text(instance.id)])
    }

    func deleteInstance(id: String, _ db: Database) throws {
        try db.execute("DELETE FROM widget_instances WHERE id = ?", [.text(id)])
    }

    func instance(id: String, _ db: Database) throws -> WidgetInstance? {
        try db.queryOne("SELECT * FROM widget_instances WHERE id = ?", [.text(id)]).map(Self.instance)
    }

    /// The placed instances of `kind` (every one when `nil`), oldest first.
    ///
    /// The two statements are built once: a batch of intent performs asks for the instances of the kinds they reload
    /// twice (to plan, then to run the reloads), and SQL built per call was hashed to find its statement each time.
    func instances(ofKind kind: String?, _ db: Database) throws -> [WidgetInstance] {
        if let kind {
            return try db.query(Self.instancesOfKindSQL, [.text(kind)]).map(Self.instance)
        }
        return try db.query(Self.allInstancesSQL).map(Self.instance)
    }

    private static let allInstancesSQL = "SELECT * FROM widget_instances ORDER BY placed_at, id"
    private static let instancesOfKindSQL = "SELECT * FROM widget_instances WHERE kind = ? ORDER BY placed_at, id"

    /// Every placed instance, oldest first.
    public func allInstances() throws -> [WidgetInstance] {
        try read { db in try instances(ofKind: nil, db) }
    }

    private static func instance(_ row: Row) throws -> WidgetInstance {
        let parameters = try EngineCoding.value(JSONValue.self, from: row.string("raw_parameters"),
                                                column: "raw_parameters")
        let diagnostics = try EngineCoding.value([TimelineDiagnostic].self, from: row.string("resolution_diagnostics"),
                                                 column: "resolution_diagnostics")
        return WidgetInstance(
            id: row.string("id") ?? "", kind: row.string("kind") ?? "", family: row.string("family") ?? "",
            rawParameters: parameters.objectValue ?? [:], configurationKey: row.string("configuration_key") ?? "",
            placedAt: row.date("placed_at") ?? .distantPast, updatedAt: row.date("updated_at") ?? .distantPast,
            resolutionDiagnostics: diagnostics)
    }

    // MARK: Configurations

    func configuration(key: String, _ db: Database) throws -> ConfigurationRecord? {
        guard let row = try db.queryOne("SELECT * FROM configurations WHERE key = ?", [.text(key)]) else {
            return nil
        }
        let parameters = try EngineCoding.value(JSONValue.self, from: row.string("parameters"), column: "parameters")
        let diagnostics = try EngineCoding.value([TimelineDiagnostic].self,
                                                 from: row.string("resolution_diagnostics"),
                                                 column: "resolution_diagnostics")
        let timeline = try row.string("timeline").map {
            try EngineCoding.value(StoredTimeline.self, from: $0, column: "timeline")
        }
        return ConfigurationRecord(
            key: key, kind: row.string("kind") ?? "", family: row.string("family") ?? "",
            parameters: parameters.objectValue ?? [:], resolutionDiagnostics: diagnostics, timeline: timeline,
            timelineWasReordered: row.bool("reordered") ?? false, providerRuns: row.int("provider_runs") ?? 0,
            lastFailure: row.string("last_failure"))
    }

    /// What a provider run needs of a configuration, without decoding its stored timeline.
    func configurationToRun(key: String, _ db: Database) throws -> ConfigurationToRun? {
        guard let row = try db.queryOne(
            "SELECT kind, family, parameters, resolution_diagnostics FROM configurations WHERE key = ?",
            [.text(key)]) else { return nil }
        return try Self.configurationToRun(row)
    }

    /// A configuration's run inputs from a row holding its `kind`, `family`, `parameters` and
    /// `resolution_diagnostics` columns.
    static func configurationToRun(_ row: Row) throws -> ConfigurationToRun {
        // Parameters are stored as canonical JSON text (``JSONValue/canonicalText``): the JSON module's parser
        // reads them several times faster than `JSONDecoder` decoding a `JSONValue`.
        let parameters: JSONValue
        do {
            parameters = try JSONParser.parse(Data((row.string("parameters") ?? "").utf8))
        } catch {
            throw EngineError.corruptRow(column: "parameters", detail: "\(error)")
        }
        let diagnosticsText = row.string("resolution_diagnostics")
        let diagnostics = diagnosticsText == "[]" ? [] : try EngineCoding.value(
            [TimelineDiagnostic].self, from: diagnosticsText, column: "resolution_diagnostics")
        return ConfigurationToRun(kind: row.string("kind") ?? "", family: row.string("family") ?? "",
                                  parameters: parameters.objectValue ?? [:], resolutionDiagnostics: diagnostics)
    }

    func insertConfigurationIfMissing(key: String, kind: String, family: String,
                                      parameters: [String: JSONValue], diagnostics: [TimelineDiagnostic],
                                      _ db: Database) throws {
        try db.execute("""
            INSERT INTO configurations(key, kind, family, parameters, resolution_diagnostics)
            VALUES (?, ?, ?, ?, ?) ON CONFLICT(key) DO NOTHING
            """, [.text(key), .text(kind), .text(family), .text(JSONValue.object(parameters).canonicalText),
                  .text(EngineCoding.text(diagnostics: diagnostics))])
    }

    func deleteConfigurationIfUnused(key: String, _ db: Database) throws {
        try db.execute("""
            DELETE FROM configurations WHERE key = ?
            AND NOT EXISTS (SELECT 1 FROM widget_instances WHERE configuration_key = ?)
            """, [.text(key), .text(key)])
    }

    // MARK: Settings

    func setting(_ name: String, _ db: Database) throws -> String? {
        try db.scalar("SELECT value FROM engine_settings WHERE name = ?", [.text(name)], as: String.self)
    }

    func setSetting(_ name: String, to value: String, _ db: Database) throws {
        try db.execute("""
            INSERT INTO engine_settings(name, value) VALUES (?, ?)
            ON CONFLICT(name) DO UPDATE SET value = excluded.value
            """, [.text(name), .text(value)])
    }
}

/// What a provider run reads of its configuration.
struct ConfigurationToRun: Sendable {
    var kind: String
    var family: String
    var parameters: [String: JSONValue]
    var resolutionDiagnostics: [TimelineDiagnostic]
}

/// What became of one provider run.
enum ProviderRunOutcome: Sendable {
    /// The timeline passed validation and was stored.
    case accepted(TimelineValidator.Outcome)
    /// The timeline was refused; the previous one stays.
    case rejected(String)
}
