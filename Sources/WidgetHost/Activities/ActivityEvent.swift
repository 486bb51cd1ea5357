import ActivityKit
import Foundation
import JSON

/// One entry of an activity's history: a state it moved to, content it showed, an alert, a new token, or an update
/// it did not apply and why.
///
/// The history answers "what did the Lock Screen show at T" (``LiveActivities/screen(activityID:at:)``) and "why did
/// it not move": every ignored update is here with its reason, which no device tells you.
public struct ActivityEvent: Sendable, Hashable {
    /// The order in which events were recorded (increasing, engine-wide).
    public var sequence: Int64
    /// The activity, or `nil` for a push that reached no activity (an unknown token, say).
    public var activityID: String?
    /// When it happened on the engine's clock (for a rule, the moment the rule took effect).
    public var at: Date
    /// Who caused it.
    public var source: ActivityEventSource
    /// What happened.
    public var change: Change

    /// Creates an entry.
    ///
    /// Public so that tools outside the engine (charts, reports, tests) can read or build a history without running
    /// one; the engine gives `sequence` when it records an event.
    public init(sequence: Int64, activityID: String?, at: Date, source: ActivityEventSource, change: Change) {
        self.sequence = sequence
        self.activityID = activityID
        self.at = at
        self.source = source
        self.change = change
    }

    /// What happened.
    public enum Change: Sendable, Hashable {
        /// The activity moved to a state.
        case state(ActivityState)
        /// The activity shows new content.
        case content(ActivityContentValue)
        /// An alert was shown.
        case alert(ActivityAlert)
        /// The activity (or, with no activity, its attributes type) got a new push token.
        case token(Data)
        /// An update or push was not applied.
        case ignored(ActivityIgnoredUpdate)
    }
}

/// An update that changed nothing on the screen, and why.
public struct ActivityIgnoredUpdate: Sendable, Hashable {
    /// Why, as a stable code.
    public var reason: ActivityIgnoreReason
    /// The particulars: the field that did not decode, the timestamps compared, the state it was in.
    public var detail: String
    /// The push's `event` (`start`, `update`, `end`), or the app call (`update`, `end`).
    public var event: String?
    /// The push's payload as it arrived, for pushes.
    public var payload: JSONValue?

    /// Creates a record of an ignored update.
    public init(reason: ActivityIgnoreReason, detail: String, event: String? = nil, payload: JSONValue? = nil) {
        self.reason = reason
        self.detail = detail
        self.event = event
        self.payload = payload
    }
}

/// Why a device did not apply an update: the quiet failures.
public enum ActivityIgnoreReason: String, Sendable, Hashable, CaseIterable {
    /// The push went to a token this device never issued.
    case unknownToken = "unknown_token"
    /// The push went to a token that was replaced by a newer one (a rotation nobody stored).
    case replacedToken = "replaced_token"
    /// Live Activities are switched off for the app.
    case activitiesDisabled = "activities_disabled"
    /// `timestamp` is missing from the push.
    case missingTimestamp = "missing_timestamp"
    /// `timestamp` is not later than the last update applied.
    case staleTimestamp = "stale_timestamp"
    /// `event` is missing or not `start`, `update` or `end`.
    case unknownEvent = "unknown_event"
    /// The event does not fit the address (`start` to an update token or a channel, `update` to a push-to-start token).
    case eventNotAllowed = "event_not_allowed"
    /// An update without `content-state`.
    case missingContentState = "missing_content_state"
    /// `content-state` does not decode as the activity's `ContentState` with `JSONDecoder`'s defaults.
    case undecodableContentState = "undecodable_content_state"
    /// A push-to-start without an `alert`.
    case startWithoutAlert = "start_without_alert"
    /// A push-to-start without `attributes-type`, or naming a type other than its token's.
    case attributesTypeMismatch = "attributes_type_mismatch"
    /// `attributes` does not decode as the attributes type.
    case undecodableAttributes = "undecodable_attributes"
    /// The engine does not know the attributes type (register it with the catalog).
    case unknownAttributesType = "unknown_attributes_type"
    /// A field the device reads (`stale-date`, `dismissal-date`, `relevance-score`, `alert`) has the wrong type.
    case invalidField = "invalid_field"
    /// The activity has ended (or was dismissed, or has not started) and takes no more updates.
    case activityNotActive = "activity_not_active"
    /// Starting it would exceed the number of activities the app may have at once.
    case tooManyActivities = "too_many_activities"
}
