import ActivityKit
import Foundation

/// Why the engine refused an activity operation. Nothing changed.
public enum ActivityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No activity has this id.
    case unknownActivity(String)
    /// The engine knows no attributes type of this name (register it with the catalog).
    case unknownAttributesType(String)
    /// The attributes do not decode as their type: the decoding error, with its path.
    case undecodableAttributes(String)
    /// The content state does not decode as the type's `ContentState`.
    case undecodableContentState(String)
    /// Live Activities are switched off.
    case activitiesDisabled
    /// The app has as many activities as it may.
    case tooManyActivities(limit: Int)
    /// Attributes and content state are larger than allowed together.
    case tooLarge(size: Int, limit: Int)
    /// A channel id that is empty, too long or holds control characters.
    case invalidChannel(String)
    /// The activity takes no pushes by token, so it has no token to rotate.
    case noPushToken(String)
    /// A moment after the clock's now: what the screen shows then is not known yet.
    case futureTime(Date)

    public var description: String {
        switch self {
        case .unknownActivity(let id): "no activity has the id '\(id)'"
        case .unknownAttributesType(let name):
            "no activity attributes type is named '\(name)' (register it with WidgetCatalog.registerActivity)"
        case .undecodableAttributes(let detail): "the attributes do not decode as their type: \(detail)"
        case .undecodableContentState(let detail): "the content state does not decode as the ContentState: \(detail)"
        case .activitiesDisabled: "Live Activities are switched off (see the authorization switches)"
        case .tooManyActivities(let limit): "the app already has \(limit) activities pending, active or stale"
        case .tooLarge(let size, let limit):
            "attributes and content state are \(size) bytes of JSON together; at most \(limit) are allowed"
        case .invalidChannel(let id): "the channel id '\(id)' is empty, longer than 256 bytes or holds control characters"
        case .noPushToken(let id): "the activity '\(id)' was not requested with push type token, so it has no token"
        case .futureTime(let date):
            "\(ActivityText.seconds(date)) is after the clock's now; what the screen will show is not known yet"
        }
    }

    static func checkChannel(_ id: String) throws {
        guard !id.isEmpty, id.utf8.count <= 256, !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { throw ActivityError.invalidChannel(id) }
    }
}

extension ActivityError {
    /// The ActivityKit error app code sees for this refusal.
    var authorizationError: ActivityAuthorizationError {
        switch self {
        case .activitiesDisabled: .denied
        case .tooManyActivities: .targetMaximumExceeded
        case .tooLarge: .attributesTooLarge
        default: .persistenceFailure
        }
    }
}
