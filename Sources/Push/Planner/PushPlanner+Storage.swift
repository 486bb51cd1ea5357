import Foundation
import JSON
import SharedState

/// The planner's tables: one row per activity (what was last pushed, the held latest state and when it is due),
/// every decision, and the policies set per attributes type.
extension PushPlanner {
    static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration("Push.planner.1-activities-decisions-policies") { db in
            try db.execute("""
                CREATE TABLE push_planner_activities(
                    activity_id TEXT PRIMARY KEY NOT NULL,
                    attributes_type TEXT NOT NULL,
                    first_at REAL NOT NULL,
                    ends_at REAL NOT NULL,
                    last_push_at REAL,
                    last_state TEXT,
                    pending_state TEXT,
                    pending_due REAL,
                    frequent_pushes INTEGER NOT NULL DEFAULT 0,
                    ended_at REAL)
                """)
            try db.execute("""
                CREATE INDEX push_planner_due ON push_planner_activities(pending_due) WHERE ended_at IS NULL
                """)
            try db.execute("CREATE INDEX push_planner_ends ON push_planner_activities(ends_at) WHERE ended_at IS NULL")
            try db.execute("""
                CREATE TABLE push_decisions(
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    activity_id TEXT NOT NULL,
                    at REAL NOT NULL,
                    kind TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    state TEXT,
                    apns_id TEXT,
                    priority INTEGER,
                    due_at REAL)
                """)
            try db.execute("CREATE INDEX push_decisions_by_activity ON push_decisions(activity_id, id)")
            try db.execute("""
                CREATE TABLE push_policies(attributes_type TEXT PRIMARY KEY NOT NULL, policy TEXT NOT NULL)
                """)
        }
        return migrator
    }

    /// One activity as the planner keeps it.
    struct Activity {
        var id: String
        var attributesType: String
        var firstAt: Date
        var endsAt: Date
        var lastPushAt: Date?
        var lastState: JSONValue?
        var pendingState: JSONValue?
        var pendingDue: Date?
        var frequentPushes: Bool
        var endedAt: Date?

        init(id: String, attributesType: String, firstAt: Date, policy: PlannerPolicy) {
            self.id = id
            self.attributesType = attributesType
            self.firstAt = firstAt
            endsAt = firstAt.addingTimeInterval(policy.endAfter)
            frequentPushes = false
        }

        init(_ row: PushSQLRow) throws {
            id = row.string("activity_id") ?? ""
            attributesType = row.string("attributes_type") ?? ""
            firstAt = row.date("first_at") ?? .distantPast
            endsAt = row.date("ends_at") ?? .distantPast
            lastPushAt = row.date("last_push_at")
            lastState = try row.string("last_state").map { try JSONParser.parse(Data($0.utf8)) }
            pendingState = try row.string("pending_state").map { try JSONParser.parse(Data($0.utf8)) }
            pendingDue = row.date("pending_due")
            frequentPushes = row.bool("frequent_pushes") ?? false
            endedAt = row.date("ended_at")
        }

        func save(_ db: PushSQLConnection) throws {
            try db.execute("""
                INSERT INTO push_planner_activities(activity_id, attributes_type, first_at, ends_at,
                    last_push_at, last_state, pending_state, pending_due, frequent_pushes, ended_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(activity_id) DO UPDATE SET attributes_type = excluded.attributes_type,
                    first_at = excluded.first_at, ends_at = excluded.ends_at, last_push_at = excluded.last_push_at,
                    last_state = excluded.last_state, pending_state = excluded.pending_state,
                    pending_due = excluded.pending_due, frequent_pushes = excluded.frequent_pushes,
                    ended_at = excluded.ended_at
                """, [.text(id), .text(attributesType), firstAt.sqlValue, endsAt.sqlValue, lastPushAt.sqlValue,
                      lastState.map { .text($0.canonicalText) } ?? .null,
                      pendingState.map { .text($0.canonicalText) } ?? .null, pendingDue.sqlValue,
                      .integer(frequentPushes ? 1 : 0), endedAt.sqlValue])
        }
    }

    static func activity(_ id: String, _ db: PushSQLConnection) throws -> Activity? {
        try db.queryOne("SELECT * FROM push_planner_activities WHERE activity_id = ?", [.text(id)]).map(Activity.init)
    }

    static func policy(for attributesType: String, _ db: PushSQLConnection) throws -> PlannerPolicy {
        guard let text = try db.queryOne("SELECT policy FROM push_policies WHERE attributes_type = ?",
                                         [.text(attributesType)])?.string("policy") else { return PlannerPolicy() }
        do {
            return try JSONDecoder().decode(PlannerPolicy.self, from: Data(text.utf8))
        } catch {
            throw PushStoreError.corruptRow("push_policies.policy")
        }
    }

    /// Records `decision` (its id is assigned here) and returns it.
    static func record(_ decision: PlannerDecision, _ db: PushSQLConnection) throws -> PlannerDecision {
        let inserted = try db.queryOne("""
            INSERT INTO push_decisions(activity_id, at, kind, reason, state, apns_id, priority, due_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """, [.text(decision.activityID), decision.at.sqlValue, .text(decision.kind.rawValue), .text(decision.reason),
                  decision.state.map { .text($0.canonicalText) } ?? .null,
                  decision.apnsID.map { .text($0.uuidString) } ?? .null,
                  decision.priority.map { .integer(Int64($0)) } ?? .null, decision.dueAt.sqlValue])
        var recorded = decision
        guard let id = inserted?.int64("id") else { throw PushStoreError.corruptRow("push_decisions.id") }
        recorded.id = id
        return recorded
    }

    static func decision(_ row: PushSQLRow) throws -> PlannerDecision {
        guard let kind = row.string("kind").flatMap(PlannerDecision.Kind.init(rawValue:)) else {
            throw PushStoreError.corruptRow("push_decisions.kind")
        }
        return PlannerDecision(
            id: row.int64("id") ?? 0, activityID: row.string("activity_id") ?? "", at: row.date("at") ?? .distantPast,
            kind: kind, reason: row.string("reason") ?? "", state: try row.string("state").map(JSONValue.init(parsing:)),
            apnsID: row.string("apns_id").flatMap(UUID.init(uuidString:)), priority: row.int("priority"),
            dueAt: row.date("due_at"))
    }
}
