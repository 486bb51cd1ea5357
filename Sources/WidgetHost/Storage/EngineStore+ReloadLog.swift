import Foundation
import SharedState

extension EngineStore {
    /// The newest runs of `instance`'s current configuration that served it, newest first, at most `limit`.
    ///
    /// Read backwards through ``ReloadLogSchema``'s index of the configuration's runs, each run's served list found by
    /// its key, keeping those whose list names the instance (every run since it joined the configuration, usually), so
    /// the cost follows the runs returned, not the log's length. A reconfigured instance's history starts at its
    /// reconfiguration; an id removed and placed again into the same configuration also lists the runs that served it
    /// before.
    func reloadLog(of instance: WidgetInstance, limit: Int, _ db: Database) throws -> [ReloadRecord] {
        try db.query(Self.reloadHistorySQL, [.text(instance.configurationKey), .text(instance.id),
                                             .integer(Int64(limit))]).map { row in
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

    /// An instance's history (``reloadLog(of:limit:)``): the configuration's runs from the index, newest first, each
    /// joined to its served list by the list's primary key (`CROSS JOIN` keeps that order: the log outside).
    /// Arguments: the configuration key, the instance id, the limit.
    static let reloadHistorySQL = """
        SELECT log.configuration_key, log.reason, log.ran_at, served.instance_ids, log.charged_instance_ids,
            log.outcome
        FROM reload_log AS log CROSS JOIN reload_log_served AS served ON served.id = log.served_id
        WHERE log.configuration_key = ?1
          AND EXISTS (SELECT 1 FROM json_each(served.instance_ids) AS listed WHERE listed.value = ?2)
        ORDER BY log.sequence DESC LIMIT ?3
        """

    /// The instances holding a configuration now, in id order, as a run's reload-log row names them: their list
    /// interned (``ReloadLogSchema/intern(servedList:_:)``) and its digest.
    ///
    /// When the configuration's `served_digest` is set (its last logged run served the same instances: the triggers of
    /// ``ReloadLogSchema`` clear it when one joins or leaves) and ``servedLists`` holds that list, the instances are
    /// not read; otherwise they are, and the list is interned and remembered.
    func servedList(configurationKey key: String, _ db: Database) throws -> (ids: [String], digest: Data) {
        if let digest = try db.scalar("SELECT served_digest FROM configurations WHERE key = ?", [.text(key)],
                                      as: Data.self),
           let ids = servedLists.ids(digest: digest) {
            return (ids, digest)
        }
        let ids = try instanceIDs(configurationKey: key, db)
        let digest = try ReloadLogSchema.intern(servedList: EngineCoding.text(strings: ids), db)
        servedLists.remember(ids, digest: digest)
        return (ids, digest)
    }

    /// Appends a run to the reload log, naming its served list by `servedDigest` (interned already, by
    /// ``servedList(configurationKey:_:)``), its charges as the marker when the run was charged to every instance it
    /// served (or is an exempt run serving none), the list otherwise.
    func appendReloadLog(_ entry: ReloadRecord, servedDigest: Data, _ db: Database) throws {
        let charged = entry.chargedInstanceIDs == entry.instanceIDs
            ? ReloadLogSchema.chargedEveryServedInstance
            : EngineCoding.text(strings: entry.chargedInstanceIDs)
        try db.execute("""
            INSERT INTO reload_log(configuration_key, reason, ran_at, served_id, charged_instance_ids, outcome)
            VALUES (?, ?, ?, (SELECT id FROM reload_log_served WHERE digest = ?), ?, ?)
            """, [.text(entry.configurationKey), .text(entry.reason.rawValue), entry.ranAt.sqlValue,
                  .blob(servedDigest), .text(charged), .text(entry.outcome)])
    }
}
