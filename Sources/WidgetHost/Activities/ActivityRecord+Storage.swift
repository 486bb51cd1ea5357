import ActivityKit
import Foundation
import JSON
import SharedState

/// How an activity is kept in its `activities` row.
extension ActivityRecord {
    init(row: Row, pushToken: Data?) throws {
        func parsed(_ column: String) throws -> JSONValue {
            do {
                return try JSONValue(parsing: row.string(column) ?? "")
            } catch {
                throw EngineError.corruptRow(column: "activities.\(column)", detail: "\(error)")
            }
        }
        guard let state = ActivityState(rawValue: row.string("state") ?? ""),
              let style = ActivityStyle(rawValue: row.string("style") ?? ""),
              let startedBy = ActivityEventSource(rawValue: row.string("started_by") ?? "") else {
            throw EngineError.corruptRow(column: "activities", detail: "unknown state, style or source")
        }
        let push: ActivityPushSubscription = switch row.string("push") {
        case "token": .token
        case "channel": .channel(row.string("channel_id") ?? "")
        default: .none
        }
        self.init(
            id: row.string("id") ?? "", attributesType: row.string("attributes_type") ?? "",
            attributes: try parsed("attributes"),
            content: ActivityContentValue(state: try parsed("content_state"), staleDate: row.date("stale_date"),
                                          relevanceScore: row.double("relevance_score") ?? 0),
            state: state, push: push, style: style, startedBy: startedBy,
            requestedAt: row.date("requested_at") ?? .distantPast, startsAt: row.date("starts_at") ?? .distantPast,
            endedAt: row.date("ended_at"), dismissesAt: row.date("dismisses_at"),
            lastUpdateAt: row.date("last_update_at") ?? .distantPast, pushToken: pushToken)
    }

    /// The alert a scheduled activity shows when it starts, kept until then.
    static func startAlert(_ row: Row) -> ActivityAlert? {
        guard let text = row.string("start_alert"), let json = try? JSONValue(parsing: text),
              case .alert(let alert)? = try? ActivityEvent.Change(kind: "alert", detail: json) else { return nil }
        return alert
    }

    func insert(startAlert: ActivityAlert?, _ db: Database) throws {
        try db.execute("""
            INSERT INTO activities(id, attributes_type, attributes, content_state, stale_date, relevance_score, state,
                push, channel_id, style, started_by, requested_at, starts_at, start_alert, ended_at, dismisses_at,
                last_update_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(id), .text(attributesType), .text(attributes.canonicalText), .text(content.state.canonicalText),
                  content.staleDate.sqlValue, .real(content.relevanceScore), .text(state.rawValue), .text(push.name),
                  push.channelID.sqlValue, .text(style.rawValue), .text(startedBy.rawValue), requestedAt.sqlValue,
                  startsAt.sqlValue, startAlert.map { .text(ActivityEvent.Change.alert($0).detailJSON.canonicalText) } ?? .null,
                  endedAt.sqlValue, dismissesAt.sqlValue, lastUpdateAt.sqlValue])
    }

    /// Writes what can change: content, state, the end's dates and the last update's time.
    func save(_ db: Database) throws {
        try db.execute("""
            UPDATE activities SET content_state = ?, stale_date = ?, relevance_score = ?, state = ?, ended_at = ?,
                dismisses_at = ?, last_update_at = ?, start_alert = CASE WHEN ? = 'pending' THEN start_alert END
            WHERE id = ?
            """, [.text(content.state.canonicalText), content.staleDate.sqlValue, .real(content.relevanceScore),
                  .text(state.rawValue), endedAt.sqlValue, dismissesAt.sqlValue, lastUpdateAt.sqlValue,
                  .text(state.rawValue), .text(id)])
    }
}
