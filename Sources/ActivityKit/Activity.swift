import Foundation

/// A Live Activity the app started (or a push started for it): its attributes, what it shows, where it is in its
/// life, and the calls that change it.
///
/// Calls reach the host bound to the task that made the activity (``HostContext/current`` when `request` ran or
/// `activities` was read), and an activity keeps that host: updating or ending it later, from any task, reaches the
/// same engine. Unbound, ``request(attributes:content:pushType:)`` throws ``ActivityAuthorizationError/unsupported``,
/// ``activities`` is empty and the streams finish at once.
///
/// Mirrors [Activity](https://developer.apple.com/documentation/activitykit/activity).
public final class Activity<Attributes: ActivityAttributes>: Identifiable {
    /// The type of the content that changes over the activity's life.
    public typealias ContentState = Attributes.ContentState
    /// The sequence behind ``pushTokenUpdates`` and ``pushToStartTokenUpdates``.
    public typealias PushTokenUpdates = ActivityStream<Data>
    /// The sequence behind ``pushToStartTokenUpdates``.
    public typealias PushToStartTokenUpdates = ActivityStream<Data>
    /// The sequence behind ``activityStateUpdates``.
    public typealias ActivityStateUpdates = ActivityStream<ActivityState>
    /// The sequence behind ``contentUpdates``.
    public typealias ContentUpdates = ActivityStream<ActivityContent<ContentState>>
    /// The sequence behind ``activityUpdates``.
    public typealias ActivityUpdates = ActivityStream<Activity<Attributes>>

    /// The activity's id, unique on the device.
    public let id: String
    /// The attributes it was started with; they never change.
    public let attributes: Attributes
    private let host: any ActivityHost
    /// What the activity showed when this object was made, for when the host can no longer say.
    private let initial: ActivitySnapshot

    init(snapshot: ActivitySnapshot, attributes: Attributes, host: any ActivityHost) {
        id = snapshot.id
        self.attributes = attributes
        self.host = host
        initial = snapshot
    }

    private var snapshot: ActivitySnapshot {
        host.activitySnapshot(id: id) ?? initial
    }

    /// What the activity shows now.
    public var content: ActivityContent<ContentState> {
        Self.decode(snapshot.content) ?? Self.decode(initial.content)!
    }

    /// Where the activity is in its life now.
    public var activityState: ActivityState {
        host.activitySnapshot(id: id)?.state ?? .dismissed
    }

    /// The activity's current update token, when it was requested with ``PushType/token``; it changes when the
    /// token rotates (watch ``pushTokenUpdates`` and send every new one to your server).
    public var pushToken: Data? {
        snapshot.pushToken
    }

    /// The activity's update token now (if it has one) and every token that replaces it.
    public var pushTokenUpdates: PushTokenUpdates {
        ActivityStream(host.activityEvents(id: id)) { event in
            if case .pushToken(let token) = event { token } else { nil }
        }
    }

    /// Each state the activity moves to from now on; finishes once it is dismissed.
    public var activityStateUpdates: ActivityStateUpdates {
        ActivityStream(host.activityEvents(id: id)) { event in
            if case .state(let state) = event { state } else { nil }
        }
    }

    /// Each content the activity shows from now on.
    public var contentUpdates: ContentUpdates {
        ActivityStream(host.activityEvents(id: id)) { event in
            if case .content(let content) = event { Self.decode(content) } else { nil }
        }
    }

    // MARK: Changing it

    /// Shows new content.
    ///
    /// Ignored (the host records why) when the activity has ended.
    public func update(_ content: ActivityContent<ContentState>) async {
        await update(content, alertConfiguration: nil, timestamp: nil)
    }

    /// Shows new content and, if given, an alert.
    public func update(_ content: ActivityContent<ContentState>, alertConfiguration: AlertConfiguration?) async {
        await update(content, alertConfiguration: alertConfiguration, timestamp: nil)
    }

    /// Shows new content as of `timestamp`: ignored when a later update (a push, say) was already applied.
    public func update(_ content: ActivityContent<ContentState>, alertConfiguration: AlertConfiguration?,
                       timestamp: Date?) async {
        guard let encoded = Self.encode(content) else { return }
        await host.updateActivity(id: id, content: encoded, alert: alertConfiguration, timestamp: timestamp)
    }

    /// Ends the activity, with final content (`nil` keeps what it shows) and a dismissal policy.
    public func end(_ content: ActivityContent<ContentState>?,
                    dismissalPolicy: ActivityUIDismissalPolicy = .default) async {
        await end(content, dismissalPolicy: dismissalPolicy, timestamp: nil)
    }

    /// Ends the activity as of `timestamp`.
    public func end(_ content: ActivityContent<ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy,
                    timestamp: Date?) async {
        let encoded = content.flatMap(Self.encode)
        if content != nil && encoded == nil { return }
        await host.endActivity(id: id, content: encoded, dismissalPolicy: dismissalPolicy, timestamp: timestamp)
    }

    // MARK: Starting one

    /// Starts a Live Activity.
    /// - Parameters:
    ///   - attributes: What does not change.
    ///   - content: What it shows first.
    ///   - pushType: `.token` for its own update token, `.channel(id)` for a broadcast channel, `nil` for none.
    /// - Throws: ``ActivityAuthorizationError``.
    public static func request(attributes: Attributes, content: ActivityContent<ContentState>,
                               pushType: PushType? = nil) throws -> Activity<Attributes> {
        try request(attributes, content, pushType, .standard, nil, nil)
    }

    /// Starts a Live Activity in a style.
    /// - Throws: ``ActivityAuthorizationError``.
    public static func request(attributes: Attributes, content: ActivityContent<ContentState>,
                               pushType: PushType? = nil, style: ActivityStyle) throws -> Activity<Attributes> {
        try request(attributes, content, pushType, style, nil, nil)
    }

    /// Schedules a Live Activity to start at `start`, announced with an alert; it is ``ActivityState/pending``
    /// until then.
    /// - Throws: ``ActivityAuthorizationError``.
    public static func request(attributes: Attributes, content: ActivityContent<ContentState>,
                               pushType: PushType? = nil, style: ActivityStyle = .standard,
                               alertConfiguration: AlertConfiguration, start: Date) throws -> Activity<Attributes> {
        try request(attributes, content, pushType, style, alertConfiguration, start)
    }

    private static func request(_ attributes: Attributes, _ content: ActivityContent<ContentState>,
                                _ pushType: PushType?, _ style: ActivityStyle, _ alert: AlertConfiguration?,
                                _ start: Date?) throws -> Activity<Attributes> {
        guard let host = currentHost else { throw ActivityAuthorizationError.unsupported }
        guard let encodedAttributes = try? ActivityCoding.encode(attributes), let encodedContent = encode(content)
        else { throw ActivityAuthorizationError.persistenceFailure }
        let details = ActivityRequestDetails(
            type: ActivityAttributesType(Attributes.self), attributes: encodedAttributes, content: encodedContent,
            pushType: pushType, style: style, alert: alert, start: start)
        let snapshot = try host.requestActivity(details)
        return Activity(snapshot: snapshot, attributes: attributes, host: host)
    }

    // MARK: The app's activities

    /// The app's activities of this attributes type that are not dismissed, oldest first.
    public static var activities: [Activity<Attributes>] {
        guard let host = currentHost else { return [] }
        return host.activitySnapshots(attributesType: typeName).compactMap { make($0, host: host) }
    }

    /// Activities of this type started from now on, by the app or by a push-to-start.
    public static var activityUpdates: ActivityUpdates {
        let host = currentHost
        return ActivityStream(host?.activityStarts(of: ActivityAttributesType(Attributes.self))) { snapshot in
            host.flatMap { make(snapshot, host: $0) }
        }
    }

    /// The token a server uses to start an activity of this type with a push; issued on first request.
    public static var pushToStartToken: Data? {
        currentHost?.pushToStartToken(of: ActivityAttributesType(Attributes.self))
    }

    /// The push-to-start token now and every token that replaces it.
    public static var pushToStartTokenUpdates: PushToStartTokenUpdates {
        ActivityStream(currentHost?.pushToStartTokenUpdates(of: ActivityAttributesType(Attributes.self))) { $0 }
    }

    // MARK: Encoding

    private static var currentHost: (any ActivityHost)? {
        HostContext.current as? any ActivityHost
    }

    private static var typeName: String { String(describing: Attributes.self) }

    private static func make(_ snapshot: ActivitySnapshot, host: any ActivityHost) -> Activity<Attributes>? {
        guard let attributes = try? JSONDecoder().decode(Attributes.self, from: snapshot.attributes),
              decode(snapshot.content) != nil else { return nil }
        return Activity(snapshot: snapshot, attributes: attributes, host: host)
    }

    private static func encode(_ content: ActivityContent<ContentState>) -> EncodedActivityContent? {
        guard let state = try? ActivityCoding.encode(content.state) else { return nil }
        return EncodedActivityContent(state: state, staleDate: content.staleDate, relevanceScore: content.relevanceScore)
    }

    private static func decode(_ content: EncodedActivityContent) -> ActivityContent<ContentState>? {
        guard let state = try? JSONDecoder().decode(ContentState.self, from: content.state) else { return nil }
        return ActivityContent(state: state, staleDate: content.staleDate, relevanceScore: content.relevanceScore)
    }
}

// @unchecked Sendable: every stored property is a `let`; `attributes` is a value the activity decoded or was given
// and never changes, and everything that does change is read from the host, which is Sendable.
extension Activity: @unchecked Sendable {}
