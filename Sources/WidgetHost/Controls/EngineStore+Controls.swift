import Foundation
import JSON
import SharedState

/// The rows of `control_instances` and `control_reload_log` (``ControlSchema``).
extension EngineStore {
    func insertControl(_ control: ControlInstance, _ db: Database) throws {
        let configuration: SQLValue = control.configuration.isEmpty
            ? .null : .text(JSONValue.object(control.configuration).canonicalText)
        try db.execute("INSERT INTO control_instances(id, kind, placed_at, configuration) VALUES (?, ?, ?, ?)",
                       [.text(control.id), .text(control.kind), control.placedAt.sqlValue, configuration])
    }

    func deleteControl(id: String, _ db: Database) throws {
        try db.execute("DELETE FROM control_instances WHERE id = ?", [.text(id)])
    }

    func control(id: String, _ db: Database) throws -> ControlInstance? {
        try db.queryOne("SELECT * FROM control_instances WHERE id = ?", [.text(id)]).map(Self.control)
    }

    /// Placed controls in placement order (rowid breaks ties of one instant); of one kind when `kind` is given.
    func controls(kind: String? = nil, _ db: Database) throws -> [ControlInstance] {
        if let kind {
            return try db.query("SELECT * FROM control_instances WHERE kind = ? ORDER BY placed_at, rowid", [.text(kind)])
                .map(Self.control)
        }
        return try db.query("SELECT * FROM control_instances ORDER BY placed_at, rowid", []).map(Self.control)
    }

    /// Stores a reload's result on its control (a failed read keeps the value shown before) and logs the reload.
    func recordControlReload(_ reload: ControlReload, _ db: Database) throws {
        let value: SQLValue = reload.value.map { .text($0.canonicalText) } ?? .null
        let failure: SQLValue = reload.failure.map { .text($0) } ?? .null
        if reload.failure == nil {
            try db.execute("UPDATE control_instances SET value = ?, value_read_at = ?, last_failure = NULL WHERE id = ?",
                           [value, reload.ranAt.sqlValue, .text(reload.instanceID)])
        } else {
            try db.execute("UPDATE control_instances SET value_read_at = ?, last_failure = ? WHERE id = ?",
                           [reload.ranAt.sqlValue, failure, .text(reload.instanceID)])
        }
        try db.execute("""
            INSERT INTO control_reload_log(instance_id, kind, reason, ran_at, value, failure) VALUES (?, ?, ?, ?, ?, ?)
            """, [.text(reload.instanceID), .text(reload.kind), .text(reload.reason.rawValue), reload.ranAt.sqlValue,
                  value, failure])
    }

    /// The logged control reloads, oldest first.
    func controlReloads(_ db: Database) throws -> [ControlReload] {
        try db.query("SELECT * FROM control_reload_log ORDER BY sequence", []).map { row in
            ControlReload(instanceID: row.string("instance_id") ?? "", kind: row.string("kind") ?? "",
                          reason: ControlReload.Reason(rawValue: row.string("reason") ?? "") ?? .performed,
                          ranAt: row.date("ran_at") ?? .distantPast, value: Self.json(row.string("value")),
                          failure: row.string("failure"))
        }
    }

    private static func control(_ row: Row) -> ControlInstance {
        ControlInstance(id: row.string("id") ?? "", kind: row.string("kind") ?? "",
                        configuration: json(row.string("configuration"))?.objectValue ?? [:],
                        placedAt: row.date("placed_at") ?? .distantPast, value: json(row.string("value")),
                        valueReadAt: row.date("value_read_at"), lastFailure: row.string("last_failure"))
    }

    /// Values are written as canonical JSON by ``recordControlReload(_:_:)``, so they always parse.
    private static func json(_ text: String?) -> JSONValue? {
        text.flatMap { try? JSONValue(parsing: Data($0.utf8)) }
    }
}
