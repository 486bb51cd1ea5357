import Foundation

/// A host that runs Live Activities: the engine bound to the task, seen from `ActivityKit`.
///
/// `Activity` and `ActivityAuthorizationInfo` find it with a dynamic cast of ``HostContext/current`` and keep the
/// host they found, so an activity requested inside a binding can be updated and ended from anywhere. Everything
/// crosses this boundary encoded (attributes and content states as the JSON `JSONEncoder` writes), so the host
/// needs no generic types; ``ActivityAttributesType`` carries what it needs to decode a type's JSON as a device does.
public protocol ActivityHost: HostBinding {
    /// Starts an activity.
    /// - Throws: ``ActivityAuthorizationError`` (`.denied` when activities are switched off,
    ///   `.targetMaximumExceeded`, `.attributesTooLarge`, `.persistenceFailure`).
    func requestActivity(_ request: ActivityRequestDetails) throws -> ActivitySnapshot

    /// Applies an update from the app. Ignored (and recorded as such) when the activity has ended or `timestamp`
    /// is not later than the last update applied.
    func updateActivity(id: String, content: EncodedActivityContent, alert: AlertConfiguration?,
                        timestamp: Date?) async

    /// Ends an activity from the app; `content` `nil` keeps the last content.
    func endActivity(id: String, content: EncodedActivityContent?, dismissalPolicy: ActivityUIDismissalPolicy,
                     timestamp: Date?) async

    /// The activity now, or `nil` when the host has no activity with that id.
    func activitySnapshot(id: String) -> ActivitySnapshot?

    /// The activities of one attributes type that are not dismissed, oldest first.
    func activitySnapshots(attributesType: String) -> [ActivitySnapshot]

    /// What happens to one activity from now on: state changes, content changes, new push tokens (the current
    /// token first, if it has one). Finishes when the activity is dismissed.
    func activityEvents(id: String) -> AsyncStream<ActivityHostEvent>

    /// Activities of one attributes type started from now on (by the app or by a push-to-start).
    func activityStarts(of type: ActivityAttributesType) -> AsyncStream<ActivitySnapshot>

    /// The attributes type's push-to-start token, issued on first request.
    func pushToStartToken(of type: ActivityAttributesType) -> Data?

    /// The attributes type's push-to-start token now (issued on first request) and each one that replaces it.
    func pushToStartTokenUpdates(of type: ActivityAttributesType) -> AsyncStream<Data>

    /// The user's Live Activity switches now.
    var activityAuthorization: ActivityAuthorization { get }

    /// The user's Live Activity switches each time they change.
    func activityAuthorizationUpdates() -> AsyncStream<ActivityAuthorization>
}

/// The user's Live Activity switches in Settings.
public struct ActivityAuthorization: Sendable, Hashable, Codable {
    /// Live Activities are allowed for the app.
    public var activitiesEnabled: Bool
    /// The app may update its activities more often than the system's default budget allows.
    public var frequentPushesEnabled: Bool

    /// Creates a pair of switches.
    public init(activitiesEnabled: Bool, frequentPushesEnabled: Bool) {
        self.activitiesEnabled = activitiesEnabled
        self.frequentPushesEnabled = frequentPushesEnabled
    }
}

/// A change to one activity, as ``ActivityHost/activityEvents(id:)`` streams it.
public enum ActivityHostEvent: Sendable, Hashable {
    /// The activity moved to a new state.
    case state(ActivityState)
    /// The activity shows new content.
    case content(EncodedActivityContent)
    /// The activity has a new update token.
    case pushToken(Data)
}
