import ActivityKit
import Foundation
import JSON
import PostgresStore
import SharedState

/// Decides which Live Activity updates go out, and when, so activities move without wasting the device's budget.
///
/// Hosts submit content states as they change (``submit(activityID:attributesType:state:at:frequentPushes:)``);
/// per activity, under its attributes type's ``PlannerPolicy``, the planner coalesces to the latest state, holds
/// changes below the significance rules, keeps the minimum interval, spends priority 10 only on alert-worthy changes
/// within the hourly budget, stamps every update with a stale date, and ends the activity when a completion rule
/// holds or before the 8-hour limit. Held states go out at ``flush(now:)`` when due (``nextFlushDate()``).
///
/// Each decision is stored with its reason (``decisions(activityID:kinds:limit:)``), and the push it queues goes
/// into the ``PushOutbox`` in the same transaction: when a submit returns, both are on disk. Timestamps are whole
/// seconds from the planner's clock, strictly increasing per activity.
public final class PushPlanner: Sendable {
    /// The outbox pushes are queued in.
    public let outbox: PushOutbox
    /// The app's bundle identifier: pushes go to `<bundle>.push-type.liveactivity`.
    public let bundleIdentifier: String
    let database: PushDatabase
    private let now: @Sendable () -> Date

    /// Opens the planner on `database` (the token registry's and the outbox's), applying its migrations.
    /// - Parameters:
    ///   - database: The push store's database, holding the token registry's table.
    ///   - bundleIdentifier: The app's bundle identifier.
    ///   - now: The clock changes are dated by when the caller gives no date (the engine's, so virtual time applies).
    public convenience init(database: DatabaseStore, bundleIdentifier: String,
                            now: @escaping @Sendable () -> Date) throws {
        try self.init(.sqlite(database), bundleIdentifier: bundleIdentifier, now: now)
    }

    /// Opens the planner in a PostgreSQL database several daemons share (with the token registry's and the outbox's
    /// tables), applying its migrations. Its decisions and their pushes are committed in one PostgreSQL transaction.
    /// - Throws: ``PostgresError`` (`.unavailable` when the server cannot be reached).
    public convenience init(pool: PostgresPool, bundleIdentifier: String,
                            now: @escaping @Sendable () -> Date) throws {
        try self.init(.postgres(pool), bundleIdentifier: bundleIdentifier, now: now)
    }

    /// Opens the planner in `database` (SQLite or PostgreSQL), with the registry's and the outbox's tables.
    public init(_ database: PushDatabase, bundleIdentifier: String, now: @escaping @Sendable () -> Date) throws {
        _ = try PushTokenRegistry(database, now: now)
        outbox = try PushOutbox(database, now: now)
        try database.migrate(sqlite: Self.migrator, postgres: PushPostgresSchema.planner)
        self.database = database
        self.bundleIdentifier = bundleIdentifier
        self.now = now
    }

    /// Submits one state change.
    /// - Parameters:
    ///   - activityID: The activity.
    ///   - attributesType: Its attributes type's name (``ActivityAttributesType/name``), which selects the policy.
    ///   - state: The new content state, as the app's `JSONEncoder` writes it: a JSON object.
    ///   - at: When it happened; the planner's clock when nil.
    ///   - frequentPushes: Whether the device reports frequent pushes enabled (the larger priority-10 budget).
    /// - Returns: The decision, recorded, with its push queued when it has one.
    /// - Throws: ``PushPlannerError``; nothing is recorded.
    @discardableResult
    public func submit(activityID: String, attributesType: String, state: JSONValue, at: Date? = nil,
                       frequentPushes: Bool = false) throws -> PlannerDecision {
        try submit([StateChange(activityID: activityID, attributesType: attributesType, state: state, at: at,
                                frequentPushes: frequentPushes)])[0]
    }

    /// Submits one state change of an `Attributes` activity, encoded as the app's `JSONEncoder` writes it.
    /// - Throws: ``PushPlannerError``; nothing is recorded.
    @discardableResult
    public func submit<Attributes: ActivityAttributes>(
        activityID: String, state: Attributes.ContentState, of type: Attributes.Type, at: Date? = nil,
        frequentPushes: Bool = false
    ) throws -> PlannerDecision {
        let json: JSONValue
        do {
            json = try PushCoding.json(state)
        } catch {
            throw PushPlannerError.unbuildable(String(describing: error))
        }
        return try submit(activityID: activityID, attributesType: ActivityAttributesType(type).name, state: json,
                          at: at, frequentPushes: frequentPushes)
    }

    /// Submits changes in one transaction: all their decisions and pushes are committed together when this returns,
    /// or none when it throws. Changes are judged in order.
    /// - Throws: ``PushPlannerError``; nothing is recorded.
    public func submit(_ changes: [StateChange]) throws -> [PlannerDecision] {
        var changes = changes
        for index in changes.indices {
            try Self.check("activity id", changes[index].activityID)
            try Self.check("attributes type", changes[index].attributesType)
            guard case .object = changes[index].state else { throw PushPlannerError.stateNotObject }
            // As the wire carries it (1.0 is written 1 and read back as an integer), so a state compares equal to
            // the one pushed and stored before it.
            changes[index].state = try JSONParser.parse(Data(changes[index].state.canonicalText.utf8))
        }
        let clock = now()
        let bundle = bundleIdentifier
        return try database.write { db in
            var run = PlannerRun(db: db, bundleIdentifier: bundle)
            return try changes.map { change in try run.submit(change, at: change.at ?? clock) }
        }
    }

    /// Sends what came due by `now`: held states whose time came, and ends of activities at their time limit.
    /// - Returns: The decisions, in due order.
    @discardableResult
    public func flush(now: Date) throws -> [PlannerDecision] {
        let bundle = bundleIdentifier
        return try database.write { db in
            var run = PlannerRun(db: db, bundleIdentifier: bundle)
            // SQLite's two-argument MIN is PostgreSQL's LEAST.
            let least = db.dialect == .sqlite ? "MIN" : "LEAST"
            let rows = try db.query("""
                SELECT * FROM push_planner_activities
                WHERE ended_at IS NULL AND (pending_due <= ? OR ends_at <= ?)
                ORDER BY \(least)(COALESCE(pending_due, ends_at), ends_at), activity_id
                """, [now.sqlValue, now.sqlValue])
            return try rows.compactMap { row in try run.flush(row, now: now) }
        }
    }

    /// When ``flush(now:)`` next has something to do: the earliest held state's due date or time limit.
    public func nextFlushDate() throws -> Date? {
        try database.read { db in
            let row = try db.queryOne("""
                SELECT MIN(pending_due) AS due, MIN(ends_at) AS ends FROM push_planner_activities WHERE ended_at IS NULL
                """)
            return [row?.date("due"), row?.date("ends")].compactMap { $0 }.min()
        }
    }

    /// Recorded decisions, oldest first.
    /// - Parameters:
    ///   - activityID: Only this activity's.
    ///   - kinds: Only these kinds.
    ///   - limit: At most this many (the latest ones).
    public func decisions(activityID: String? = nil, kinds: Set<PlannerDecision.Kind>? = nil,
                          limit: Int = 1000) throws -> [PlannerDecision] {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        if let activityID {
            conditions.append("activity_id = ?")
            arguments.append(.text(activityID))
        }
        if let kinds {
            conditions.append("kind IN (\(kinds.map { _ in "?" }.joined(separator: ", ")))")
            arguments += kinds.map { .text($0.rawValue) }
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        arguments.append(.integer(Int64(max(0, limit))))
        return try database.read { db in
            try db.query("SELECT * FROM (SELECT * FROM push_decisions \(filter) ORDER BY id DESC LIMIT ?) AS d ORDER BY id",
                         arguments).map(Self.decision)
        }
    }

    /// How many decisions of each kind were recorded, for one activity or all.
    public func decisionCounts(activityID: String? = nil) throws -> [PlannerDecision.Kind: Int] {
        try database.read { db in
            var counts: [PlannerDecision.Kind: Int] = [:]
            let rows = try db.query("""
                SELECT kind, COUNT(*) AS n FROM push_decisions \(activityID == nil ? "" : "WHERE activity_id = ?")
                GROUP BY kind
                """, activityID.map { [.text($0)] } ?? [])
            for row in rows {
                if let kind = row.string("kind").flatMap(PlannerDecision.Kind.init(rawValue:)) { counts[kind] = row.int("n") }
            }
            return counts
        }
    }

    /// Whether any activity holds a state not sent yet (the planner still owes a flush before its time limit).
    public func hasHeldStates() throws -> Bool {
        try database.read { db in
            try db.queryOne("SELECT 1 FROM push_planner_activities WHERE ended_at IS NULL AND pending_state IS NOT NULL LIMIT 1") != nil
        }
    }

    /// The policy in force for `attributesType`: the one set, or the defaults.
    public func policy(for attributesType: String) throws -> PlannerPolicy {
        try database.read { db in try Self.policy(for: attributesType, db) }
    }

    /// Sets the policy of `attributesType`; it applies to the next decision (an activity's time limit is fixed when
    /// the planner first sees it).
    /// - Throws: ``PlannerPolicyProblem`` for a policy that cannot work, ``PushPlannerError/invalidIdentifier(field:value:)``.
    public func setPolicy(_ policy: PlannerPolicy, for attributesType: String) throws {
        try Self.check("attributes type", attributesType)
        if let problem = policy.problem { throw problem }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(policy), as: UTF8.self)
        try database.write { db in
            try db.execute("""
                INSERT INTO push_policies(attributes_type, policy) VALUES (?, ?)
                ON CONFLICT(attributes_type) DO UPDATE SET policy = excluded.policy
                """, [.text(attributesType), .text(text)])
        }
    }

    static func check(_ field: String, _ value: String) throws {
        do {
            try PushTokenRegistry.check(field, value)
        } catch {
            throw PushPlannerError.invalidIdentifier(field: field, value: value)
        }
    }
}
