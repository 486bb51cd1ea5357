import ActivityKit
import Foundation
import HTTPServer
import JSON
import Push
import WidgetHost

// The Live Activity wire shapes: what `/v1/activities`, `/v1/activity-types` and `/v1/device` read and answer, and
// what `widgethost activities --json` writes. Tokens are lower-case hex (`PushTokenText`), dates RFC 3339.
extension V1 {
    /// An activity's content: the content state as JSON, with its stale date and relevance.
    package struct ActivityContent: Codable {
        var state: JSONValue
        var staleDate: Date?
        var relevanceScore: Double?

        private enum CodingKeys: String, CodingKey { case state, staleDate, relevanceScore }

        /// Reads a request's content: the state is an object (as a `Codable` struct encodes), so anything else is
        /// the body's shape being wrong (400 `invalid_field`), not the type failing to decode it (422).
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            state = .object(try container.decode([String: JSONValue].self, forKey: .state))
            staleDate = try container.decodeIfPresent(Date.self, forKey: .staleDate)
            relevanceScore = try container.decodeIfPresent(Double.self, forKey: .relevanceScore)
        }

        init(_ content: ActivityContentValue) {
            state = content.state
            staleDate = content.staleDate
            relevanceScore = content.relevanceScore
        }

        /// The engine's content; an absent relevance is 0, as ActivityKit's default.
        var value: ActivityContentValue {
            ActivityContentValue(state: state, staleDate: staleDate, relevanceScore: relevanceScore ?? 0)
        }
    }

    /// An alert shown with an update, or with a scheduled start.
    package struct ActivityAlert: Codable {
        var title: String
        var body: String
        var sound: String?

        init(_ alert: WidgetHost.ActivityAlert) {
            title = alert.title
            body = alert.body
            sound = alert.sound
        }

        var value: WidgetHost.ActivityAlert { WidgetHost.ActivityAlert(title: title, body: body, sound: sound) }
    }

    /// How a started activity takes remote updates.
    package enum ActivityPushType: String, Codable, CaseIterable {
        case none, token, channel

        /// The subscription this push type makes with `channelID`, or nil when they do not go together.
        package func subscription(channelID: String?) -> ActivityPushSubscription? {
            switch (self, channelID) {
            case (.none, nil): ActivityPushSubscription.none
            case (.token, nil): ActivityPushSubscription.token
            case (.channel, let id?): ActivityPushSubscription.channel(id)
            case (.none, .some), (.token, .some), (.channel, nil): nil
            }
        }

        /// Why ``subscription(channelID:)`` answered nil.
        package static let mismatch = "a channel id goes with push type \"channel\", and only with it"
    }

    /// `POST /v1/activities`: start an activity as the app's `Activity.request` would.
    package struct StartActivityRequest: Decodable {
        var attributesType: String
        /// An object, as a `Codable` struct encodes; anything else is 400 `invalid_field`.
        var attributes: [String: JSONValue]
        var content: ActivityContent
        /// `none` when absent.
        var pushType: ActivityPushType?
        /// Required with `pushType` `channel`, refused with any other (422 `invalid_channel`).
        var channelId: String?
        var style: ActivityStyle?
        var alert: ActivityAlert?
        /// For a scheduled activity: when it starts (it is `pending` until then).
        var startDate: Date?

        /// The engine's request.
        /// - Throws: 422 `invalid_channel` for a `channelId` without `pushType` `channel`, or the reverse: the body's
        ///   shape is right, the pair is not (so a schema-valid body is never a 400).
        package func request() throws -> LiveActivities.StartRequest {
            guard let push = (pushType ?? ActivityPushType.none).subscription(channelID: channelId) else {
                throw APIError(.invalidChannel, status: .unprocessableContent, message: ActivityPushType.mismatch,
                               detail: ["field": "channelId"])
            }
            return LiveActivities.StartRequest(
                attributesType: attributesType, attributes: .object(attributes), content: content.value, push: push,
                style: style ?? .standard, alert: alert?.value, startsAt: startDate)
        }
    }

    /// `POST /v1/activities/{id}/update`: new content, as the app's `Activity.update` would show it.
    package struct UpdateActivityRequest: Decodable {
        var content: ActivityContent
        var alert: ActivityAlert?
        /// The update's time; the clock's now when absent. Not later than the last update applied: ignored.
        var timestamp: Date?
    }

    /// `POST /v1/activities/{id}/end`: end it, as the app's `Activity.end` would.
    package struct EndActivityRequest: Decodable {
        var content: ActivityContent?
        var dismissalPolicy: DismissalPolicy?
        var timestamp: Date?
    }

    /// `ActivityUIDismissalPolicy` on the wire: `{"kind":"default"}`, `{"kind":"immediate"}` or
    /// `{"kind":"after","date":"…"}`.
    package struct DismissalPolicy: Decodable {
        package enum Kind: String, Decodable, CaseIterable {
            case `default`, immediate, after
        }

        var kind: Kind
        /// Required with `after`, refused with the others.
        var date: Date?

        private enum CodingKeys: String, CodingKey { case kind, date }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            kind = try container.decode(Kind.self, forKey: .kind)
            // The strict decoder names the member: `after` without a date is a missing field, a date with the
            // others an invalid one (it would be silently dropped otherwise).
            if kind == .after {
                date = try container.decode(Date.self, forKey: .date)
            } else if container.contains(.date) {
                throw DecodingError.dataCorruptedError(forKey: .date, in: container,
                                                       debugDescription: "only kind \"after\" takes a date")
            }
        }

        var value: ActivityUIDismissalPolicy {
            switch kind {
            case .default: .default
            case .immediate: .immediate
            case .after: .after(date ?? .distantPast)
            }
        }
    }

    /// `PUT /v1/activities/authorization` and its `GET`: the user's switches.
    package struct ActivityAuthorizationSwitches: Codable {
        var activitiesEnabled: Bool
        var frequentPushesEnabled: Bool

        package init(_ authorization: ActivityAuthorization) {
            activitiesEnabled = authorization.activitiesEnabled
            frequentPushesEnabled = authorization.frequentPushesEnabled
        }

        var value: ActivityAuthorization {
            ActivityAuthorization(activitiesEnabled: activitiesEnabled, frequentPushesEnabled: frequentPushesEnabled)
        }
    }

    /// `GET /v1/activities`.
    package struct ActivityList: Encodable {
        var activities: [Activity]

        package init(_ records: [ActivityRecord]) {
            activities = records.map { Activity($0) }
        }
    }

    /// One activity as it is now; `GET /v1/activities/{id}` adds its history, oldest first.
    package struct Activity: Encodable {
        var id: String
        var attributesType: String
        var attributes: JSONValue
        var content: ActivityContent
        /// `pending`, `active`, `stale`, `ended` or `dismissed`.
        var state: ActivityState
        var pushType: ActivityPushType
        var channelId: String?
        /// The current update token (hex), for `pushType` `token` while it takes updates.
        var pushToken: String?
        var style: ActivityStyle
        /// `app`, `push` or `system`.
        var startedBy: String
        var requestedAt: Date
        var startsAt: Date
        var endedAt: Date?
        var dismissesAt: Date?
        var lastUpdateAt: Date
        var history: [ActivityHistoryEvent]?

        package init(_ record: ActivityRecord, history: [ActivityEvent]? = nil) {
            id = record.id
            attributesType = record.attributesType
            attributes = record.attributes
            content = ActivityContent(record.content)
            state = record.state
            pushType = ActivityPushType(rawValue: record.push.name) ?? ActivityPushType.none
            channelId = record.push.channelID
            pushToken = record.pushToken.map(PushTokenText.hex)
            style = record.style
            startedBy = record.startedBy.rawValue
            requestedAt = record.requestedAt
            startsAt = record.startsAt
            endedAt = record.endedAt
            dismissesAt = record.dismissesAt
            lastUpdateAt = record.lastUpdateAt
            self.history = history?.map(ActivityHistoryEvent.init)
        }
    }

    /// One entry of an activity's history (or an unaddressed push): `kind` says which member holds it.
    package struct ActivityHistoryEvent: Encodable {
        var sequence: Int64
        var activityId: String?
        var at: Date
        /// `app`, `push` or `system`.
        var source: String
        /// `state`, `content`, `alert`, `token` or `ignored`.
        var kind: String
        var state: ActivityState?
        var content: ActivityContent?
        var alert: ActivityAlert?
        var token: String?
        var ignored: IgnoredUpdate?

        init(_ event: ActivityEvent) {
            sequence = event.sequence
            activityId = event.activityID
            at = event.at
            source = event.source.rawValue
            switch event.change {
            case .state(let state):
                kind = "state"
                self.state = state
            case .content(let content):
                kind = "content"
                self.content = ActivityContent(content)
            case .alert(let alert):
                kind = "alert"
                self.alert = ActivityAlert(alert)
            case .token(let token):
                kind = "token"
                self.token = PushTokenText.hex(token)
            case .ignored(let ignored):
                kind = "ignored"
                self.ignored = IgnoredUpdate(ignored)
            }
        }
    }

    /// An update that changed nothing, and why (`reason` is an ``ActivityIgnoreReason`` code).
    package struct IgnoredUpdate: Encodable {
        var reason: String
        var detail: String
        var event: String?
        var payload: JSONValue?

        init(_ ignored: ActivityIgnoredUpdate) {
            reason = ignored.reason.rawValue
            detail = ignored.detail
            event = ignored.event
            payload = ignored.payload
        }
    }

    /// `GET /v1/device/pushes/unaddressed`: pushes that reached no activity, oldest first.
    package struct ActivityEventList: Encodable {
        var events: [ActivityHistoryEvent]

        package init(_ events: [ActivityEvent]) {
            self.events = events.map(ActivityHistoryEvent.init)
        }
    }

    /// `POST /v1/activities/{id}/update` and `/end`: the activity afterwards, and whether the change applied.
    package struct ActivityChangeResult: Encodable {
        var activity: Activity
        /// `applied` or `ignored`.
        var outcome: String
        /// For `ignored`: an ``ActivityIgnoreReason`` code.
        var reason: String?
        var detail: String?

        package init(_ record: ActivityRecord, outcome: ActivityUpdateOutcome) {
            activity = Activity(record)
            (self.outcome, reason, detail) = Self.text(outcome)
        }

        /// An outcome as `outcome`, `reason` and `detail`.
        static func text(_ outcome: ActivityUpdateOutcome) -> (String, String?, String?) {
            switch outcome {
            case .applied: ("applied", nil, nil)
            case .ignored(let ignored): ("ignored", ignored.reason.rawValue, ignored.detail)
            }
        }
    }

    /// `GET /v1/activities/{id}/screen`: what the Lock Screen showed at `at`.
    package struct ActivityScreen: Encodable {
        var activityId: String
        var at: Date
        /// Absent before the activity was requested.
        var state: ActivityState?
        var content: ActivityContent?
        var isStale: Bool
        var isVisible: Bool
        var lastAlert: ActivityAlert?
        var lastAlertAt: Date?

        package init(_ screen: WidgetHost.ActivityScreen) {
            activityId = screen.activityID
            at = screen.at
            state = screen.state
            content = screen.content.map(ActivityContent.init)
            isStale = screen.isStale
            isVisible = screen.isVisible
            lastAlert = screen.lastAlert.map(ActivityAlert.init)
            lastAlertAt = screen.lastAlertAt
        }
    }
}
