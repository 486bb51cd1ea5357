import AppIntents
import Foundation
import JSON
import SharedState

extension WidgetEngine {
    /// Runs code as the containing app would, bound to this engine: `IntentDonationManager.shared.donate(intent:)`,
    /// `RelevantIntentManager.shared.updateRelevantIntents(_:)`, ActivityKit (`Activity.request`, `update`, `end`,
    /// the streams), `WidgetCenter.shared` and `UserDefaults(suiteName:)` inside `body` reach this engine. An
    /// `Activity` made inside keeps reaching this engine afterwards. Donations and relevant intents are stored
    /// when `body` returns (dropped when it throws), dated by the engine's clock.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw, or a store error.
    public func runAppCode<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await withUserCode(body)
    }

    /// Stores a donation made outside user code (a host relaying one from a device, for example).
    public func recordDonation(_ donation: DonationRecord) throws {
        try store.write { db in try Self.insert(donation, db) }
    }

    /// Donations made at or after `since` (default: all), oldest first.
    public func donations(since: Date = .distantPast) throws -> [DonationRecord] {
        try store.read { db in
            try db.query("""
                SELECT id, intent_type, parameters, donated_at FROM intent_donations WHERE donated_at >= ?
                ORDER BY donated_at, id
                """, [since.sqlValue]).map(Self.donation)
        }
    }

    /// Replaces the app's relevant-intent list, as `RelevantIntentManager.updateRelevantIntents(_:)` does.
    public func setRelevantIntents(_ records: [RelevantIntentRecord]) throws {
        try store.write { db in try Self.replaceRelevantIntents(records, db) }
    }

    /// The app's current relevant-intent list, in the order it was given.
    public func relevantIntents() throws -> [RelevantIntentRecord] {
        try store.read { db in
            try db.query("SELECT widget_kind, intent_type, parameters, context FROM relevant_intents ORDER BY position")
                .map(Self.relevantIntent)
        }
    }

    func storeRelevanceSignals(_ signals: (donations: [DonationRecord], relevantIntents: [RelevantIntentRecord]?))
        throws {
        guard !signals.donations.isEmpty || signals.relevantIntents != nil else { return }
        try store.write { db in
            for donation in signals.donations { try Self.insert(donation, db) }
            if let list = signals.relevantIntents { try Self.replaceRelevantIntents(list, db) }
        }
    }

    private static func insert(_ donation: DonationRecord, _ db: Database) throws {
        try db.execute("""
            INSERT INTO intent_donations(id, intent_type, parameters, donated_at) VALUES (?, ?, ?, ?)
            ON CONFLICT(id) DO NOTHING
            """, [.text(donation.id.uuidString), .text(donation.intentType),
                  .text(JSONValue.object(donation.parameters).canonicalText), donation.donatedAt.sqlValue])
    }

    private static func replaceRelevantIntents(_ records: [RelevantIntentRecord], _ db: Database) throws {
        try db.execute("DELETE FROM relevant_intents")
        for (position, record) in records.enumerated() {
            try db.execute("""
                INSERT INTO relevant_intents(position, widget_kind, intent_type, parameters, context)
                VALUES (?, ?, ?, ?, ?)
                """, [.integer(Int64(position)), .text(record.widgetKind), .text(record.intentType),
                      .text(JSONValue.object(record.parameters).canonicalText),
                      .text(EngineCoding.text(record.context))])
        }
    }

    static func donation(_ row: Row) throws -> DonationRecord {
        let parameters = try EngineCoding.value(JSONValue.self, from: row.string("parameters"), column: "parameters")
        return DonationRecord(id: row.string("id").flatMap(UUID.init(uuidString:)) ?? UUID(),
                              intentType: row.string("intent_type") ?? "",
                              parameters: parameters.objectValue ?? [:],
                              donatedAt: row.date("donated_at") ?? .distantPast)
    }

    static func relevantIntent(_ row: Row) throws -> RelevantIntentRecord {
        let parameters = try EngineCoding.value(JSONValue.self, from: row.string("parameters"), column: "parameters")
        let context = try EngineCoding.value(RelevantContext.self, from: row.string("context"), column: "context")
        return RelevantIntentRecord(widgetKind: row.string("widget_kind") ?? "",
                                    intentType: row.string("intent_type") ?? "",
                                    parameters: parameters.objectValue ?? [:], context: context)
    }
}
