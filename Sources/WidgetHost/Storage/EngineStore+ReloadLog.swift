import Foundation
import SharedState

extension EngineStore {
    /// The newest runs of `instance`'s current configuration that served it, newest first, at most `limit`.
    ///
    /// Read backwards through ``ReloadLogSchema``'s index of the configuration's runs, keeping those whose served
    /// instances name it (every run since it joined the configuration, usually), so the cost follows the runs
    /// returned, not the log's length. A reconfigured instance's history starts at its reconfiguration; an id removed
    /// and placed again into the same configuration also lists the runs that served it before.
    func reloadLog(of instance: WidgetInstance, limit: Int, _ db: Database) throws -> [ReloadRecord] {
        try db.query("""
            SELECT * FROM reload_log
            WHERE configuration_key = ?
              AND EXISTS (SELECT 1 FROM json_each(reload_log.instance_ids) AS served WHERE served.value = ?)
            ORDER BY sequence DESC LIMIT ?
            """, [.text(instance.configurationKey), .text(instance.id), .integer(Int64(limit))]).map { row in
            guard let reason = ReloadReason(rawValue: row.string("reason") ?? "") else {
                throw EngineError.corruptRow(column: "reason", detail: row.string("reason") ?? "NULL")
            }
            guard let ranAt = row.date("ran_at") else { throw EngineError.corruptRow(column: "ran_at", detail: "NULL") }
            let served = try EngineCoding.value([String].self, from: row.string("instance_ids"), column: "instance_ids")
            let charged = row.string("charged_instance_ids")
            return ReloadRecord(
                configurationKey: row.string("configuration_key") ?? "", reason: reason, ranAt: ranAt,
                instanceIDs: served,
                chargedInstanceIDs: charged == ReloadLogSchema.chargedEveryServedInstance
                    ? served
                    : try EngineCoding.value([String].self, from: charged, column: "charged_instance_ids"),
                outcome: row.string("outcome") ?? "")
        }
    }
}
