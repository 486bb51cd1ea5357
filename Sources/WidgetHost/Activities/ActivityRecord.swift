import ActivityKit
import Foundation
import JSON

/// One Live Activity as the engine keeps it: what it was started with, what it shows now, and its life's dates.
public struct ActivityRecord: Sendable, Hashable {
    /// The activity's id.
    public var id: String
    /// The attributes type's name (`attributes-type` in pushes).
    public var attributesType: String
    /// The attributes, as JSON.
    public var attributes: JSONValue
    /// What it shows now.
    public var content: ActivityContentValue
    /// Where it is in its life now.
    public var state: ActivityState
    /// How it takes remote updates.
    public var push: ActivityPushSubscription
    /// How long it stays in view.
    public var style: ActivityStyle
    /// Who started it.
    public var startedBy: ActivityEventSource
    /// When it was requested.
    public var requestedAt: Date
    /// When it starts (or started): `requestedAt`, or the start date of a scheduled activity.
    public var startsAt: Date
    /// When it ended, if it has.
    public var endedAt: Date?
    /// When it leaves (or left) the Lock Screen, once it has ended.
    public var dismissesAt: Date?
    /// The time of the last update applied (the app's, or a push's `timestamp`): an update not later than this is
    /// ignored.
    public var lastUpdateAt: Date
    /// Its current update token, when it takes pushes by token.
    public var pushToken: Data?

    /// Creates a record.
    ///
    /// Public so that tools outside the engine (charts, reports, tests) can describe an activity without running
    /// one. The dates an unscheduled activity shares default to `requestedAt`.
    public init(id: String, attributesType: String, attributes: JSONValue, content: ActivityContentValue,
                state: ActivityState, push: ActivityPushSubscription = .none, style: ActivityStyle = .standard,
                startedBy: ActivityEventSource = .app, requestedAt: Date, startsAt: Date? = nil, endedAt: Date? = nil,
                dismissesAt: Date? = nil, lastUpdateAt: Date? = nil, pushToken: Data? = nil) {
        self.id = id
        self.attributesType = attributesType
        self.attributes = attributes
        self.content = content
        self.state = state
        self.push = push
        self.style = style
        self.startedBy = startedBy
        self.requestedAt = requestedAt
        self.startsAt = startsAt ?? requestedAt
        self.endedAt = endedAt
        self.dismissesAt = dismissesAt
        self.lastUpdateAt = lastUpdateAt ?? requestedAt
        self.pushToken = pushToken
    }
}

/// An activity's content as JSON: the content state with its stale date and relevance.
public struct ActivityContentValue: Sendable, Hashable {
    /// The content state, as the app's `JSONEncoder` writes it (keys sorted).
    public var state: JSONValue
    /// When it goes stale, if ever.
    public var staleDate: Date?
    /// Relevance among the app's activities.
    public var relevanceScore: Double

    /// Creates content.
    public init(state: JSONValue, staleDate: Date? = nil, relevanceScore: Double = 0) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

/// How an activity takes remote updates.
public enum ActivityPushSubscription: Sendable, Hashable {
    /// It takes none.
    case none
    /// Pushes to its own update token.
    case token
    /// Broadcasts on a channel.
    case channel(String)

    init(_ pushType: PushType?) {
        switch pushType?.kind {
        case nil: self = .none
        case .token: self = .token
        case .channel(let id): self = .channel(id)
        }
    }

    /// `none`, `token` or `channel`.
    public var name: String {
        switch self {
        case .none: "none"
        case .token: "token"
        case .channel: "channel"
        }
    }

    /// The channel's id, for a channel subscription.
    public var channelID: String? {
        if case .channel(let id) = self { id } else { nil }
    }
}

/// Who caused an activity's change.
public enum ActivityEventSource: String, Sendable, Hashable, CaseIterable {
    /// App code (`Activity.request`, `update`, `end`), or the API acting as the app.
    case app
    /// A push, as APNs delivers it.
    case push
    /// The system's rules: the start of a scheduled activity, the 8-hour end, stale dates, dismissal, token rotation.
    case system
}

/// The alert shown with an update: the text it shows and the keys it would be localized by.
public struct ActivityAlert: Sendable, Hashable {
    /// The title shown.
    public var title: String
    /// The body shown.
    public var body: String
    /// The sound's name; `nil` for the default sound.
    public var sound: String?

    /// Creates an alert.
    public init(title: String, body: String, sound: String? = nil) {
        self.title = title
        self.body = body
        self.sound = sound
    }

    init(_ configuration: AlertConfiguration) {
        self.init(title: configuration.title.defaultValue, body: configuration.body.defaultValue,
                  sound: configuration.sound.name)
    }
}
