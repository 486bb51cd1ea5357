import ActivityKit
import Foundation
import JSON
import Push
import SharedState

/// How an event's change is kept in `activity_events`: a kind and a JSON detail.
extension ActivityEvent.Change {
    var kind: String {
        switch self {
        case .state: "state"
        case .content: "content"
        case .alert: "alert"
        case .token: "token"
        case .ignored: "ignored"
        }
    }

    var detailJSON: JSONValue {
        switch self {
        case .state(let state):
            return .object(["state": .string(state.rawValue)])
        case .content(let content):
            return content.json
        case .alert(let alert):
            var members: [String: JSONValue] = ["title": .string(alert.title), "body": .string(alert.body)]
            if let sound = alert.sound { members["sound"] = .string(sound) }
            return .object(members)
        case .token(let token):
            return .object(["token": .string(PushTokenText.hex(token))])
        case .ignored(let ignored):
            var members: [String: JSONValue] = ["reason": .string(ignored.reason.rawValue),
                                                "detail": .string(ignored.detail)]
            if let event = ignored.event { members["event"] = .string(event) }
            if let payload = ignored.payload { members["payload"] = payload }
            return .object(members)
        }
    }

    init(kind: String, detail: JSONValue) throws {
        let members = detail.objectValue ?? [:]
        func string(_ key: String) throws -> String {
            guard let text = members[key]?.stringValue else {
                throw EngineError.corruptRow(column: "activity_events.detail", detail: "\(kind) without \(key)")
            }
            return text
        }
        switch kind {
        case "state":
            guard let state = ActivityState(rawValue: try string("state")) else {
                throw EngineError.corruptRow(column: "activity_events.detail", detail: "unknown state")
            }
            self = .state(state)
        case "content":
            self = .content(try ActivityContentValue(json: detail))
        case "alert":
            self = .alert(ActivityAlert(title: try string("title"), body: try string("body"),
                                        sound: members["sound"]?.stringValue))
        case "token":
            guard let token = PushTokenText.token(try string("token")) else {
                throw EngineError.corruptRow(column: "activity_events.detail", detail: "token is not hex")
            }
            self = .token(token)
        case "ignored":
            guard let reason = ActivityIgnoreReason(rawValue: try string("reason")) else {
                throw EngineError.corruptRow(column: "activity_events.detail", detail: "unknown ignore reason")
            }
            self = .ignored(ActivityIgnoredUpdate(reason: reason, detail: try string("detail"),
                                                  event: members["event"]?.stringValue, payload: members["payload"]))
        default:
            throw EngineError.corruptRow(column: "activity_events.kind", detail: kind)
        }
    }
}

extension ActivityContentValue {
    /// `{"state": …, "staleDate": seconds since 1970 or absent, "relevanceScore": …}`.
    var json: JSONValue {
        var members: [String: JSONValue] = ["state": state, "relevanceScore": .double(relevanceScore)]
        if let staleDate { members["staleDate"] = .double(staleDate.timeIntervalSince1970) }
        return .object(members)
    }

    init(json: JSONValue) throws {
        guard let members = json.objectValue, let state = members["state"] else {
            throw EngineError.corruptRow(column: "activity_events.detail", detail: "content without state")
        }
        self.init(state: state, staleDate: members["staleDate"]?.numberValue.map(Date.init(timeIntervalSince1970:)),
                  relevanceScore: members["relevanceScore"]?.numberValue ?? 0)
    }
}

extension ActivityEvent {
    static func insert(activityID: String?, at: Date, source: ActivityEventSource, change: Change,
                       _ db: Database) throws {
        try db.execute("""
            INSERT INTO activity_events(activity_id, at, source, kind, detail) VALUES (?, ?, ?, ?, ?)
            """, [activityID.sqlValue, at.sqlValue, .text(source.rawValue), .text(change.kind),
                  .text(change.detailJSON.canonicalText)])
    }

    init(row: Row) throws {
        let detail = try JSONValue(parsing: row.string("detail") ?? "")
        guard let source = ActivityEventSource(rawValue: row.string("source") ?? "") else {
            throw EngineError.corruptRow(column: "activity_events.source", detail: row.string("source") ?? "NULL")
        }
        self.init(sequence: row.int64("sequence") ?? 0, activityID: row.string("activity_id"),
                  at: row.date("at") ?? .distantPast, source: source,
                  change: try Change(kind: row.string("kind") ?? "", detail: detail))
    }
}
