/// Why a Live Activity could not be started.
///
/// Mirrors [ActivityAuthorizationError](https://developer.apple.com/documentation/activitykit/activityauthorizationerror).
public enum ActivityAuthorizationError: Error, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The attributes and content together are larger than 4 KB when encoded.
    case attributesTooLarge
    /// Live Activities are switched off for the app (`ActivityAuthorizationInfo().areActivitiesEnabled` is false).
    case denied
    /// The device shows as many Live Activities as it can.
    case globalMaximumExceeded
    /// The app already has as many Live Activities as it may.
    case targetMaximumExceeded
    /// No host runs this code: Live Activities need the engine bound to the task.
    case unsupported
    /// The activity could not be stored.
    case persistenceFailure
    /// The app is not allowed to start Live Activities.
    case unentitled
    /// The app is not in the foreground.
    case visibility
    /// The activity's identifier is not well formed.
    case malformedActivityIdentifier
    /// The request came from no known process.
    case missingProcessIdentifier
    /// The activity cannot be reconnected to.
    case reconnectNotPermitted
    /// The target does not support Live Activities.
    case unsupportedTarget

    public var description: String {
        switch self {
        case .attributesTooLarge: "the activity's attributes and content are larger than 4 KB when encoded"
        case .denied: "Live Activities are switched off for this app"
        case .globalMaximumExceeded: "the device shows as many Live Activities as it can"
        case .targetMaximumExceeded: "the app already has as many Live Activities as it may"
        case .unsupported: "no engine runs this code (bind one with HostContext.withBinding)"
        case .persistenceFailure: "the activity could not be stored"
        case .unentitled: "the app is not entitled to Live Activities"
        case .visibility: "the app must be in the foreground to start a Live Activity"
        case .malformedActivityIdentifier: "the activity identifier is not well formed"
        case .missingProcessIdentifier: "the request came from no known process"
        case .reconnectNotPermitted: "the activity cannot be reconnected to"
        case .unsupportedTarget: "this target does not support Live Activities"
        }
    }
}
