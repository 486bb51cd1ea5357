import ActivityKit
import Foundation
import JSON
import Push
import SharedState

/// One change to the engine's activities, inside its write transaction: the reads and writes every operation
/// shares, and the notices for the streams, fed after the commit.
struct ActivityChange {
    let db: Database
    let store: EngineStore
    let now: Date
    let rules: ActivityRules
    /// The known attributes types; a request adds its type.
    var types: [String: ActivityAttributesType]
    private(set) var notices: [ActivityNotice] = []
    /// Activities this change recorded events of: their next transition is computed again before the commit.
    private(set) var touched: Set<String> = []

    init(db: Database, store: EngineStore, now: Date, rules: ActivityRules, types: [String: ActivityAttributesType]) {
        self.db = db
        self.store = store
        self.now = now
        self.rules = rules
        self.types = types
    }

    mutating func notify(_ notice: ActivityNotice) {
        notices.append(notice)
    }

    // MARK: Activities

    func record(id: String) throws -> ActivityRecord {
        guard let record = try records(where: "id = ?", [.text(id)]).first else {
            throw ActivityError.unknownActivity(id)
        }
        return record
    }

    func records(where clause: String, _ arguments: [SQLValue]) throws -> [ActivityRecord] {
        try db.query("SELECT * FROM activities WHERE \(clause) ORDER BY requested_at, id", arguments).map { row in
            let id = row.string("id") ?? ""
            return try ActivityRecord(row: row, pushToken: row.string("push") == "token" ? currentToken(activityID: id) : nil)
        }
    }

    func startAlert(id: String) throws -> ActivityAlert? {
        try db.queryOne("SELECT start_alert FROM activities WHERE id = ?", [.text(id)]).flatMap(ActivityRecord.startAlert)
    }

    func events(where clause: String, _ arguments: [SQLValue]) throws -> [ActivityEvent] {
        try db.query("SELECT * FROM activity_events WHERE \(clause) ORDER BY sequence", arguments)
            .map(ActivityEvent.init(row:))
    }

    /// Records an event in the activity's history and queues the matching notice.
    mutating func record(_ change: ActivityEvent.Change, of activityID: String?, at date: Date,
                         source: ActivityEventSource) throws {
        try ActivityEvent.insert(activityID: activityID, at: date, source: source, change: change, db)
        guard let activityID else { return }
        touched.insert(activityID)
        switch change {
        case .state(let state):
            notify(.activity(activityID, .state(state)))
            if state == .dismissed { notify(.dismissed(activityID)) }
        case .content(let content):
            notify(.activity(activityID, .content(content.encoded)))
        case .token(let token):
            notify(.activity(activityID, .pushToken(token)))
        case .alert, .ignored:
            break
        }
    }

    /// Stores when each touched activity's next transition comes due; called once, before the commit.
    mutating func reschedule() throws {
        for id in touched.sorted() {
            let next = try nextTransition(of: try record(id: id))?.0
            try db.execute("UPDATE activities SET next_transition_at = ? WHERE id = ?", [next.sqlValue, .text(id)])
        }
        touched = []
    }

    /// Records an update that was not applied, and returns it as the outcome.
    mutating func ignore(_ reason: ActivityIgnoreReason, _ detail: String, of activityID: String?,
                         source: ActivityEventSource, event: String?, payload: JSONValue? = nil) throws
        -> ActivityUpdateOutcome {
        let ignored = ActivityIgnoredUpdate(reason: reason, detail: detail, event: event, payload: payload)
        try record(.ignored(ignored), of: activityID, at: now, source: source)
        return .ignored(ignored)
    }

    /// Activities that count against ``ActivityRules/maximumActivities``: pending, active or stale.
    func liveCount() throws -> Int {
        try db.scalar("SELECT count(*) FROM activities WHERE state IN ('pending', 'active', 'stale')", as: Int.self) ?? 0
    }

    // MARK: Tokens

    func currentToken(activityID: String) throws -> Data? {
        try db.scalar("""
            SELECT token FROM activity_tokens WHERE activity_id = ? AND replaced_at IS NULL
            """, [.text(activityID)], as: String.self).flatMap(PushTokenText.token)
    }

    func currentToken(attributesType: String) throws -> Data? {
        try db.scalar("""
            SELECT token FROM activity_tokens WHERE attributes_type = ? AND activity_id IS NULL AND replaced_at IS NULL
            """, [.text(attributesType)], as: String.self).flatMap(PushTokenText.token)
    }

    func tokens(where clause: String, _ arguments: [SQLValue]) throws -> [ActivityTokenRecord] {
        try db.query("SELECT * FROM activity_tokens WHERE \(clause) ORDER BY issued_at, rowid", arguments).map { row in
            ActivityTokenRecord(token: PushTokenText.token(row.string("token") ?? "") ?? Data(),
                                activityID: row.string("activity_id"), attributesType: row.string("attributes_type"),
                                issuedAt: row.date("issued_at") ?? .distantPast, replacedAt: row.date("replaced_at"))
        }
    }

    /// Issues a new token for an activity or (with `activityID` nil) an attributes type's push-to-start, replacing
    /// the current one, at `date`.
    @discardableResult
    mutating func issueToken(activityID: String?, attributesType: String, at date: Date,
                             source: ActivityEventSource) throws -> Data {
        let owner: (clause: String, argument: SQLValue) = activityID.map { ("activity_id = ?", .text($0)) }
            ?? ("attributes_type = ? AND activity_id IS NULL", .text(attributesType))
        try db.execute("UPDATE activity_tokens SET replaced_at = ?, rotates_at = NULL WHERE \(owner.clause) AND replaced_at IS NULL",
                       [date.sqlValue, owner.argument])
        let token = PushTokenText.random()
        let rotation = rules.tokenRotationInterval.map { date.addingTimeInterval($0) }
        try db.execute("""
            INSERT INTO activity_tokens(token, activity_id, attributes_type, issued_at, rotates_at) VALUES (?, ?, ?, ?, ?)
            """, [.text(PushTokenText.hex(token)), activityID.sqlValue, .text(attributesType), date.sqlValue,
                  rotation.sqlValue])
        if let activityID {
            try record(.token(token), of: activityID, at: date, source: source)
        } else {
            try ActivityEvent.insert(activityID: nil, at: date, source: source, change: .token(token), db)
            notify(.pushToStartToken(attributesType, token))
        }
        return token
    }

    /// Where a token leads: an activity's update token or a type's push-to-start token, current or replaced.
    func tokenOwner(_ token: Data) throws -> ActivityTokenRecord? {
        try tokens(where: "token = ?", [.text(PushTokenText.hex(token))]).first
    }
}

/// Something streams are told once a change has committed.
enum ActivityNotice: Sendable {
    /// A change to one activity.
    case activity(String, ActivityHostEvent)
    /// The activity was dismissed: its streams finish.
    case dismissed(String)
    /// An activity of a type started.
    case started(String, ActivitySnapshot)
    /// A type's push-to-start token changed.
    case pushToStartToken(String, Data)
    /// The user's switches changed.
    case authorization(ActivityAuthorization)
}

/// What became of an update or an end.
public enum ActivityUpdateOutcome: Sendable, Hashable {
    /// The screen shows it.
    case applied
    /// Nothing changed on the screen, for this reason (also in the activity's history).
    case ignored(ActivityIgnoredUpdate)
}

/// A push token the engine issued.
public struct ActivityTokenRecord: Sendable, Hashable {
    /// The token.
    public var token: Data
    /// The activity it updates, for an update token.
    public var activityID: String?
    /// The attributes type (of its activity, or the type it starts).
    public var attributesType: String?
    /// When it was issued.
    public var issuedAt: Date
    /// When a newer token replaced it; a push to it after that is ignored (`replaced_token`).
    public var replacedAt: Date?
}

extension ActivityContentValue {
    /// The content as `ActivityKit` hands it to app code.
    var encoded: EncodedActivityContent {
        EncodedActivityContent(state: Data(state.canonicalText.utf8), staleDate: staleDate,
                               relevanceScore: relevanceScore)
    }
}

extension ActivityRecord {
    /// The activity as `ActivityKit` hands it to app code.
    var snapshot: ActivitySnapshot {
        ActivitySnapshot(id: id, attributesType: attributesType, attributes: Data(attributes.canonicalText.utf8),
                         content: content.encoded, state: state, pushToken: pushToken)
    }
}
