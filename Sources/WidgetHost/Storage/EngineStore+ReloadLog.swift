import Foundation
import SharedState

extension EngineStore {
    /// The newest provider runs that served `instanceID`, newest first.
    ///
    /// The reload log names the instances each run served in a JSON array, so this reads the log backwards and
    /// keeps the runs whose array holds the id, up to `limit` of them: a scan of the log's tail, fine for the few
    /// dozen runs a dashboard shows.
    func reloadLog(instanceID: String, limit: Int, _ db: Database) throws -> [ReloadRecord] {
        try db.query("""
            SELECT * FROM reload_log
            WHERE EXISTS (SELECT 1 FROM json_each(reload_log.instance_ids) WHERE json_each.value = ?)
            ORDER BY sequence DESC LIMIT ?
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
