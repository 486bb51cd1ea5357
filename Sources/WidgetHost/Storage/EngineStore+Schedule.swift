import Foundation
import SharedState

extension EngineStore {
    /// An instance whose configuration's reload is due.
    struct DueReload: Sendable, Hashable {
        var instanceID: String
        var configurationKey: String
        var reload: ScheduledReload
    }

    /// A configuration whose reload is due.
    struct DueConfiguration: Sendable, Hashable {
        var key: String
        var reload: ScheduledReload
    }

    /// Keys of the configurations matching `clause` (over `configurations` columns), in key order.
    func configurationKeys(where clause: String, _ arguments: [SQLValue], _ db: Database) throws -> [String] {
        try db.query("SELECT key FROM configurations WHERE \(clause) ORDER BY key", arguments)
            .compactMap { $0.string("key") }
    }

    /// The ids of the instances holding a configuration, in id order (read from the primary key, no scan).
    func instanceIDs(configurationKey key: String, _ db: Database) throws -> [String] {
        try db.texts("SELECT id FROM widget_instances WHERE configuration_key = ? ORDER BY id", [.text(key)])
    }

    /// Sets a configuration's next reload (nil: none), which every instance holding it shares.
    func schedule(configurationKey key: String, _ reload: ScheduledReload?, _ db: Database) throws {
        try db.execute("""
            UPDATE configurations SET next_reload_at = ?, next_reload_reason = ?, deferred = ? WHERE key = ?
            """, Self.scheduleArguments(reload) + [.text(key)])
    }

    /// The next reload of a configuration, nil when none is scheduled.
    func scheduledReload(configurationKey key: String, _ db: Database) throws -> ScheduledReload? {
        guard let row = try db.queryOne(
            "SELECT next_reload_at, next_reload_reason, deferred FROM configurations WHERE key = ?",
            [.text(key)]) else { return nil }
        return Self.scheduledReload(row)
    }

    /// Configurations due at or before `time`, earliest first (then by key), read from the `configurations_due`
    /// index (no scan).
    /// - Parameter after: Only those after this (due time, key) in that order: where the previous page ended.
    func dueConfigurations(through time: Date, after: (due: Date, key: String)? = nil, limit: Int,
                           _ db: Database) throws -> [DueConfiguration] {
        let page = after.map { _ in "AND (next_reload_at, key) > (?, ?)" } ?? ""
        let pageArguments = after.map { [$0.due.sqlValue, .text($0.key)] } ?? []
        return try db.query("""
            SELECT key, next_reload_at, next_reload_reason, deferred FROM configurations
            WHERE next_reload_at IS NOT NULL AND next_reload_at <= ? \(page)
            ORDER BY next_reload_at, key LIMIT ?
            """, [time.sqlValue] + pageArguments + [.integer(Int64(limit))]).compactMap { row in
            guard let key = row.string("key"), let reload = Self.scheduledReload(row) else { return nil }
            return DueConfiguration(key: key, reload: reload)
        }
    }

    /// Instances due at or before `time`, earliest first, then by configuration and id: due configurations from
    /// their index, each one's instances from the primary key, both read in order (no sort), until `limit`.
    func dueReloads(through time: Date, limit: Int, _ db: Database) throws -> [DueReload] {
        var reloads: [DueReload] = []
        var after: (due: Date, key: String)?
        while reloads.count < limit {
            let batch = try dueConfigurations(through: time, after: after, limit: 64, db)
            guard let last = batch.last else { break }
            for configuration in batch {
                let ids = try db.query("""
                    SELECT id FROM widget_instances WHERE configuration_key = ? ORDER BY id LIMIT ?
                    """, [.text(configuration.key), .integer(Int64(limit - reloads.count))])
                    .compactMap { $0.string("id") }
                reloads += ids.map {
                    DueReload(instanceID: $0, configurationKey: configuration.key, reload: configuration.reload)
                }
                if reloads.count >= limit { break }
            }
            after = (last.reload.dueAt, last.key)
        }
        return reloads
    }

    /// The earliest scheduled reload, if any.
    func nextDueDate(_ db: Database) throws -> Date? {
        try db.scalar("SELECT MIN(next_reload_at) FROM configurations WHERE next_reload_at IS NOT NULL",
                      as: Date.self)
    }

    private static func scheduledReload(_ row: Row) -> ScheduledReload? {
        guard let due = row.date("next_reload_at"),
              let reason = row.string("next_reload_reason").flatMap(ReloadReason.init(rawValue:)) else { return nil }
        return ScheduledReload(dueAt: due, reason: reason, deferredByBudget: row.bool("deferred") ?? false)
    }

    private static func scheduleArguments(_ reload: ScheduledReload?) -> [SQLValue] {
        [reload.map { $0.dueAt.sqlValue } ?? .null, reload.map { .text($0.reason.rawValue) } ?? .null,
         .integer(reload?.deferredByBudget == true ? 1 : 0)]
    }

    /// Makes the configurations matching `clause` (over `configurations` columns) due at `time` for `reason`,
    /// unless they are already due by then.
    func scheduleNow(configurationsWhere clause: String, _ arguments: [SQLValue], at time: Date,
                     reason: ReloadReason, _ db: Database) throws {
        try db.execute("""
            UPDATE configurations SET next_reload_at = ?, next_reload_reason = ?, deferred = 0
            WHERE (\(clause)) AND (next_reload_at IS NULL OR next_reload_at > ?)
            """, [time.sqlValue, .text(reason.rawValue)] + arguments + [time.sqlValue])
    }

    // MARK: Budget

    /// The budget ledger of a configuration, shared by every instance holding it (empty for a configuration that
    /// does not exist). Its charges are read as a reload batch reads them (``charges(_:)``); the ledger keeps those
    /// in its window.
    /// - Throws: ``EngineError/corruptRow(column:detail:)`` when the `charges` column is not a JSON array.
    func ledger(configurationKey key: String, policy: ReloadBudgetPolicy, now: Date, _ db: Database) throws
        -> BudgetLedger {
        let text = try db.scalar("SELECT charges FROM configurations WHERE key = ?", [.text(key)], as: String.self)
        return BudgetLedger(charges: try text.map(Self.charges) ?? [], policy: policy, now: now)
    }

    /// The ledger with charges older than `windowStart` dropped and `time` appended, as SQL over `charges`.
    private static let chargedLedgerSQL = """
        json_insert((SELECT json_group_array(value) FROM json_each(charges) WHERE value > ?), '$[#]', ?)
        """

    /// Writes what a provider run decided for its configuration in one row rewrite: the timeline (accepted) or the
    /// refusal, the diagnostics, the next reload (nil: none), the digest of the served list the run is logged with
    /// (``servedList(configurationKey:_:)``; nil: none known), and, when `chargedAt` is given, a charge to the
    /// budget at that time (dropping charges that have left the window).
    ///
    /// One `UPDATE`, not one for the outcome and one for the schedule: the row holds the stored timeline, and each
    /// statement rewrote it whole.
    func recordProviderRun(key: String, outcome: ProviderRunOutcome, diagnostics: [TimelineDiagnostic],
                           next reload: ScheduledReload?, servedDigest: Data?, chargedAt: Date?,
                           policy: ReloadBudgetPolicy, _ db: Database) throws {
        let charge: [SQLValue] = chargedAt.map { [$0.addingTimeInterval(-policy.window).sqlValue, $0.sqlValue] } ?? []
        let tail = Self.scheduleArguments(reload) + [servedDigest.map(SQLValue.blob) ?? .null] + charge + [.text(key)]
        switch outcome {
        case .accepted(let validated):
            try db.execute(chargedAt == nil ? Self.acceptedRunSQL : Self.acceptedChargedRunSQL, [
                .text(try validated.timeline.storedText()), .integer(validated.wasReordered ? 1 : 0),
                .text(EngineCoding.text(diagnostics: diagnostics))] + tail)
        case .rejected(let reason):
            try db.execute(chargedAt == nil ? Self.rejectedRunSQL : Self.rejectedChargedRunSQL,
                           [.text(reason), .text(EngineCoding.text(diagnostics: diagnostics))] + tail)
        }
    }

    private static let acceptedRunSQL = runSQL(outcome: acceptedAssignments, charged: false)
    private static let acceptedChargedRunSQL = runSQL(outcome: acceptedAssignments, charged: true)
    private static let rejectedRunSQL = runSQL(outcome: rejectedAssignments, charged: false)
    private static let rejectedChargedRunSQL = runSQL(outcome: rejectedAssignments, charged: true)

    private static let acceptedAssignments = """
        timeline = ?, reordered = ?, provider_runs = provider_runs + 1, last_failure = NULL, resolution_diagnostics = ?
        """
    /// A refused timeline leaves the stored one in place.
    private static let rejectedAssignments = """
        provider_runs = provider_runs + 1, last_failure = ?, resolution_diagnostics = ?
        """

    private static func runSQL(outcome: String, charged: Bool) -> String {
        """
        UPDATE configurations SET \(outcome), next_reload_at = ?, next_reload_reason = ?, deferred = ?,
            served_digest = ?\(
            charged ? ", charges = \(chargedLedgerSQL)" : "")
        WHERE key = ?
        """
    }
}

/// One provider run the engine made, as recorded in the reload log.
public struct ReloadRecord: Sendable, Hashable, Codable {
    /// The configuration rebuilt.
    public var configurationKey: String
    /// Why.
    public var reason: ReloadReason
    /// When, on the engine's clock.
    public var ranAt: Date
    /// The instances the new timeline serves.
    public var instanceIDs: [String]
    /// Those charged to their budget.
    public var chargedInstanceIDs: [String]
    /// `accepted`, or `rejected: <reason>`.
    public var outcome: String
}
