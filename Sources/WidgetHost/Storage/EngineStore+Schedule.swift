import Foundation
import SharedState

extension EngineStore {
    /// An instance whose reload is due.
    struct DueReload: Sendable, Hashable {
        var instanceID: String
        var configurationKey: String
        var reload: ScheduledReload
    }

    /// An instance's id and configuration: all the reload path needs, without decoding parameters.
    struct InstanceRef: Sendable, Hashable {
        var id: String
        var configurationKey: String
    }

    func instanceRefs(where clause: String, _ arguments: [SQLValue], _ db: Database) throws -> [InstanceRef] {
        try db.query("SELECT id, configuration_key FROM widget_instances WHERE \(clause)", arguments).map {
            InstanceRef(id: $0.string("id") ?? "", configurationKey: $0.string("configuration_key") ?? "")
        }
    }

    func schedule(instanceID: String, _ reload: ScheduledReload?, _ db: Database) throws {
        try db.execute("""
            UPDATE widget_instances SET next_reload_at = ?, next_reload_reason = ?, deferred = ? WHERE id = ?
            """, [reload.map { $0.dueAt.sqlValue } ?? .null, reload.map { .text($0.reason.rawValue) } ?? .null,
                  .integer(reload?.deferredByBudget == true ? 1 : 0), .text(instanceID)])
    }

    func scheduledReload(instanceID: String, _ db: Database) throws -> ScheduledReload? {
        guard let row = try db.queryOne(
            "SELECT next_reload_at, next_reload_reason, deferred FROM widget_instances WHERE id = ?",
            [.text(instanceID)]) else { return nil }
        return Self.scheduledReload(row)
    }

    /// Instances due at or before `time`, earliest first, read from the `next_reload_at` index (no scan).
    func dueReloads(through time: Date, limit: Int, _ db: Database) throws -> [DueReload] {
        try db.query("""
            SELECT id, configuration_key, next_reload_at, next_reload_reason, deferred FROM widget_instances
            WHERE next_reload_at IS NOT NULL AND next_reload_at <= ?
            ORDER BY next_reload_at, id LIMIT ?
            """, [time.sqlValue, .integer(Int64(limit))]).compactMap { row in
            guard let reload = Self.scheduledReload(row) else { return nil }
            return DueReload(instanceID: row.string("id") ?? "",
                             configurationKey: row.string("configuration_key") ?? "", reload: reload)
        }
    }

    /// The earliest scheduled reload, if any.
    func nextDueDate(_ db: Database) throws -> Date? {
        try db.scalar("SELECT MIN(next_reload_at) FROM widget_instances WHERE next_reload_at IS NOT NULL",
                      as: Date.self)
    }

    private static func scheduledReload(_ row: Row) -> ScheduledReload? {
        guard let due = row.date("next_reload_at"),
              let reason = row.string("next_reload_reason").flatMap(ReloadReason.init(rawValue:)) else { return nil }
        return ScheduledReload(dueAt: due, reason: reason, deferredByBudget: row.bool("deferred") ?? false)
    }

    /// Schedules every instance of a configuration at once (one statement, however many instances share it).
    /// - Returns: The ids of the instances scheduled.
    @discardableResult
    func schedule(configurationKey key: String, _ reload: ScheduledReload?, _ db: Database) throws -> [String] {
        try db.query("""
            UPDATE widget_instances SET next_reload_at = ?, next_reload_reason = ?, deferred = ?
            WHERE configuration_key = ? RETURNING id
            """, [reload.map { $0.dueAt.sqlValue } ?? .null, reload.map { .text($0.reason.rawValue) } ?? .null,
                  .integer(reload?.deferredByBudget == true ? 1 : 0), .text(key)]).compactMap { $0.string("id") }
    }


    /// Makes instances matching `clause` due at `time` for `reason`, unless they are already due by then.
    func scheduleNow(where clause: String, _ arguments: [SQLValue], at time: Date, reason: ReloadReason,
                     _ db: Database) throws {
        try db.execute("""
            UPDATE widget_instances SET next_reload_at = ?, next_reload_reason = ?, deferred = 0
            WHERE (\(clause)) AND (next_reload_at IS NULL OR next_reload_at > ?)
            """, [time.sqlValue, .text(reason.rawValue)] + arguments + [time.sqlValue])
    }

    // MARK: Budget

    /// The ledgers of the given instances of one configuration, read in one query.
    func ledgers(configurationKey key: String, instanceIDs: [String], policy: ReloadBudgetPolicy, now: Date,
                 _ db: Database) throws -> [String: BudgetLedger] {
        var charges: [String: [Date]] = [:]
        for row in try db.query("""
            SELECT i.id AS instance_id, j.value AS charged_at FROM widget_instances i, json_each(i.charges) j
            WHERE i.configuration_key = ? AND j.value > ? AND j.value <= ?
            """, [.text(key), now.addingTimeInterval(-policy.window).sqlValue, now.sqlValue]) {
            guard let id = row.string("instance_id"), let date = row.date("charged_at") else { continue }
            charges[id, default: []].append(date)
        }
        var ledgers: [String: BudgetLedger] = [:]
        for id in instanceIDs {
            ledgers[id] = BudgetLedger(charges: charges[id] ?? [], policy: policy, now: now)
        }
        return ledgers
    }

    func ledger(instanceID: String, policy: ReloadBudgetPolicy, now: Date, _ db: Database) throws -> BudgetLedger {
        let since = now.addingTimeInterval(-policy.window)
        let charges = try db.query("""
            SELECT j.value AS charged_at FROM widget_instances i, json_each(i.charges) j
            WHERE i.id = ? AND j.value > ? AND j.value <= ? ORDER BY j.value
            """, [.text(instanceID), since.sqlValue, now.sqlValue]).compactMap { $0.date("charged_at") }
        return BudgetLedger(charges: charges, policy: policy, now: now)
    }

    /// The ledger with charges older than `windowStart` dropped and `time` appended, as SQL over `charges`.
    private static let chargedLedgerSQL = """
        json_insert((SELECT json_group_array(value) FROM json_each(charges) WHERE value > ?), '$[#]', ?)
        """

    /// Charges one instance's budget at `time`, dropping charges that have left the window.
    func charge(instanceID: String, at time: Date, policy: ReloadBudgetPolicy, _ db: Database) throws {
        try db.execute("UPDATE widget_instances SET charges = \(Self.chargedLedgerSQL) WHERE id = ?",
                       [time.addingTimeInterval(-policy.window).sqlValue, time.sqlValue, .text(instanceID)])
    }

    /// Charges every instance of a configuration at `time`, in one statement.
    func chargeAll(configurationKey key: String, at time: Date, policy: ReloadBudgetPolicy, _ db: Database) throws {
        try db.execute("UPDATE widget_instances SET charges = \(Self.chargedLedgerSQL) WHERE configuration_key = ?",
                       [time.addingTimeInterval(-policy.window).sqlValue, time.sqlValue, .text(key)])
    }

    func appendReloadLog(_ entry: ReloadRecord, _ db: Database) throws {
        try db.execute("""
            INSERT INTO reload_log(configuration_key, reason, ran_at, instance_ids, charged_instance_ids, outcome)
            VALUES (?, ?, ?, ?, ?, ?)
            """, [.text(entry.configurationKey), .text(entry.reason.rawValue), entry.ranAt.sqlValue,
                  .text(EngineCoding.text(entry.instanceIDs)), .text(EngineCoding.text(entry.chargedInstanceIDs)),
                  .text(entry.outcome)])
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
