import Foundation
import SharedState

extension EngineStore {
    /// The newest provider runs that served `instanceID` since it was placed, newest first, at most `limit`: read
    /// through ``ReloadLogSchema``'s index, so the cost is the runs returned, not the log's length.
    func reloadLog(instanceID: String, limit: Int, _ db: Database) throws -> [ReloadRecord] {
        try db.query("""
            SELECT reload_log.* FROM reload_log_instances
            JOIN reload_log ON reload_log.sequence = reload_log_instances.sequence
            WHERE reload_log_instances.instance_id = ?
            ORDER BY reload_log_instances.sequence DESC LIMIT ?
            """, [.text(instanceID), .integer(Int64(limit))]).map { row in
            guard let reason = ReloadReason(rawValue: row.string("reason") ?? "") else {
                throw EngineError.corruptRow(column: "reason", detail: row.string("reason") ?? "NULL")
            }
            guard let ranAt = row.date("ran_at") else { throw EngineError.corruptRow(column: "ran_at", detail: "NULL") }
            return ReloadRecord(
                configurationKey: row.string("configuration_key") ?? "", reason: reason, ranAt: ranAt,
                instanceIDs: try EngineCoding.value([String].self, from: row.string("instance_ids"), column: "instance_ids"),
                chargedInstanceIDs: try EngineCoding.value([String].self, from: row.string("charged_instance_ids"),
                                                           column: "charged_instance_ids"),
                outcome: row.string("outcome") ?? "")
        }
    }
}
