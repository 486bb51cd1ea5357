import Foundation
import JSON
import SharedState

/// The idempotency keys of one App Group container, with the outcome each first produced.
///
/// The table lives in the container itself and each key is written in the same transaction as its perform's
/// changes, so a crash cannot keep one without the other: after a restart, a retry either finds the key (the
/// perform committed) or runs (it did not).
///
/// ```sql
/// CREATE TABLE widgethost_intent_keys (
///     key TEXT PRIMARY KEY NOT NULL,
///     request TEXT NOT NULL,        -- intent, parameters as given and instance, canonical JSON
///     outcome BLOB NOT NULL,        -- the IntentOutcome, JSON
///     performed_at REAL NOT NULL,   -- engine clock
///     expires_at REAL NOT NULL)
/// ```
struct IdempotencyLedger {
    static let tableName = "widgethost_intent_keys"

    /// Adds the table to a container; the runner applies it when it opens the container.
    static func registerMigrations(in migrator: inout Migrator) {
        migrator.registerMigration("WidgetHost.intents.1-idempotency-keys") { db in
            try db.execute("""
                CREATE TABLE \(tableName) (
                    key TEXT PRIMARY KEY NOT NULL,
                    request TEXT NOT NULL,
                    outcome BLOB NOT NULL,
                    performed_at REAL NOT NULL,
                    expires_at REAL NOT NULL)
                """)
            try db.execute("CREATE INDEX \(tableName)_by_expiry ON \(tableName)(expires_at)")
        }
    }

    /// A key's stored first perform.
    struct Entry {
        var request: String
        var outcome: IntentOutcome
    }

    /// The unexpired entry for `key`, if any.
    static func entry(forKey key: String, now: Date, _ db: Database) throws -> Entry? {
        guard let row = try db.queryOne(entrySQL, [.text(key), now.sqlValue]),
              let request = row.string("request"), case .blob(let data)? = row["outcome"] else { return nil }
        do {
            return Entry(request: request, outcome: try JSONDecoder().decode(IntentOutcome.self, from: data))
        } catch {
            throw EngineError.corruptRow(column: "\(tableName).outcome", detail: "\(error)")
        }
    }

    /// Stores a key's first outcome, replacing an expired entry with the same key.
    /// - Parameter storedOutcome: The outcome in its stored form (``IntentOutcome/storedJSON()``), performed at
    ///   `performedAt`.
    static func record(key: String, request: String, storedOutcome: Data, performedAt: Date, expiresAt: Date,
                       _ db: Database) throws {
        try db.execute(recordSQL, [.text(key), .text(request), .blob(storedOutcome), performedAt.sqlValue,
                                   expiresAt.sqlValue])
    }

    /// Deletes expired entries (through the expiry index).
    static func purge(now: Date, _ db: Database) throws {
        try db.execute(purgeSQL, [now.sqlValue])
    }

    // The statements of every perform, built once (the connection's statement cache is keyed by their text).
    private static let entrySQL = "SELECT request, outcome FROM \(tableName) WHERE key = ? AND expires_at > ?"
    private static let recordSQL = """
        INSERT OR REPLACE INTO \(tableName)(key, request, outcome, performed_at, expires_at) VALUES (?, ?, ?, ?, ?)
        """
    private static let purgeSQL = "DELETE FROM \(tableName) WHERE expires_at <= ?"

    /// The canonical text a key is bound to: a retry must repeat the same request (intent, parameters as given,
    /// tapped instance).
    static func requestText(_ request: PerformRequest) -> String {
        // The canonical text of {"control"?, "instance", "intent", "parameters"}, members in sorted order, written
        // directly. "control" only when set, so the keys of performs stored before controls existed still match
        // their retries.
        var writer = JSONTextWriter(capacity: 128)
        writer.beginObject()
        if let control = request.controlID {
            writer.key(plain: "control")
            writer.string(control)
        }
        writer.key(plain: "instance")
        if let instanceID = request.instanceID { writer.string(instanceID) } else { writer.null() }
        writer.key(plain: "intent")
        writer.string(request.intentName)
        writer.key(plain: "parameters")
        do {
            try writer.value(.object(request.parameters))
        } catch {
            preconditionFailure("JSONValue always encodes: \(error)")
        }
        writer.endObject()
        return writer.text
    }
}
