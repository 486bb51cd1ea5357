import Foundation

/// An activity's content as hosts store it: the content state as JSON, with its stale date and relevance.
public struct EncodedActivityContent: Sendable, Hashable {
    /// The content state, as `JSONEncoder` (default strategies) writes it.
    public var state: Data
    /// When the content goes stale, if ever.
    public var staleDate: Date?
    /// Relevance among the app's activities.
    public var relevanceScore: Double

    /// Creates encoded content.
    public init(state: Data, staleDate: Date?, relevanceScore: Double) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

/// One activity as a host reports it.
public struct ActivitySnapshot: Sendable, Hashable {
    /// The activity's id.
    public var id: String
    /// The attributes type's name (``ActivityAttributesType/name``).
    public var attributesType: String
    /// The attributes, as JSON.
    public var attributes: Data
    /// What it shows now.
    public var content: EncodedActivityContent
    /// Where it is in its life now.
    public var state: ActivityState
    /// Its current update token, when it was requested with ``PushType/token``.
    public var pushToken: Data?

    /// Creates a snapshot.
    public init(id: String, attributesType: String, attributes: Data, content: EncodedActivityContent,
                state: ActivityState, pushToken: Data?) {
        self.id = id
        self.attributesType = attributesType
        self.attributes = attributes
        self.content = content
        self.state = state
        self.pushToken = pushToken
    }
}

/// What `Activity.request` asks a host for.
public struct ActivityRequestDetails: Sendable {
    /// The attributes type, which the host learns here if it did not know it.
    public var type: ActivityAttributesType
    /// The attributes, as JSON.
    public var attributes: Data
    /// The first content.
    public var content: EncodedActivityContent
    /// How it takes remote updates, if at all.
    public var pushType: PushType?
    /// How long it stays in view.
    public var style: ActivityStyle
    /// An alert to show when it starts (scheduled activities).
    public var alert: AlertConfiguration?
    /// When it starts, for a scheduled activity (`nil`: now).
    public var start: Date?

    /// Creates a request.
    public init(type: ActivityAttributesType, attributes: Data, content: EncodedActivityContent, pushType: PushType?,
                style: ActivityStyle, alert: AlertConfiguration?, start: Date?) {
        self.type = type
        self.attributes = attributes
        self.content = content
        self.pushType = pushType
        self.style = style
        self.alert = alert
        self.start = start
    }
}
