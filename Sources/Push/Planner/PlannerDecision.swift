import Foundation
import JSON

/// What the planner decided about one submitted state change, or about a held state when its time came.
///
/// Every decision is stored (``PushPlanner/decisions(activityID:kinds:limit:)``) with the reason in words, so a
/// host can answer "why did the Lock Screen not move?" after the fact.
public struct PlannerDecision: Sendable, Hashable {
    /// What was decided.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// An update went into the outbox.
        case sent
        /// The change replaced a held state not yet sent; the latest goes out when the held one was due.
        case coalesced
        /// Held: the last push to the activity was less than the minimum interval ago.
        case deferredByInterval = "deferred_by_interval"
        /// Held: an alert-worthy change, and the activity's priority-10 budget for the hour is used up.
        case deferredByBudget = "deferred_by_budget"
        /// Held: the change is below every significance rule; it goes out with the next push, or when the
        /// expected interval has passed.
        case skippedInsignificant = "skipped_insignificant"
        /// An end went into the outbox: a completion rule holds.
        case endedByCompletion = "ended_by_completion"
        /// An end went into the outbox: the activity neared the system's 8-hour limit.
        case endedByTimeLimit = "ended_by_time_limit"
        /// Nothing was queued: the activity has no usable update token (nor channel) in the registry.
        case noToken = "no_token"
        /// Nothing was queued: the planner already ended the activity.
        case afterEnd = "after_end"

        /// Whether a push went into the outbox with this decision.
        public var queuesPush: Bool { self == .sent || self == .endedByCompletion || self == .endedByTimeLimit }
    }

    /// The decision's number, increasing in the order decisions were made.
    public var id: Int64
    /// The activity.
    public var activityID: String
    /// When the decision was made (the planner's clock).
    public var at: Date
    /// What was decided.
    public var kind: Kind
    /// Why, in words.
    public var reason: String
    /// The content state the decision is about.
    public var state: JSONValue?
    /// The queued push's `apns-id`, for decisions that queue one.
    public var apnsID: UUID?
    /// The queued push's priority (5 or 10).
    public var priority: Int?
    /// When a held state is due to go out, for decisions that hold one.
    public var dueAt: Date?
}

/// A host's state change, as submitted to the planner.
public struct StateChange: Sendable, Hashable {
    /// The activity.
    public var activityID: String
    /// Its attributes type (which policy applies).
    public var attributesType: String
    /// The new content state, as the app's `JSONEncoder` writes it.
    public var state: JSONValue
    /// When it happened; the planner's clock when `nil`.
    public var at: Date?
    /// Whether the device reports frequent pushes enabled (a larger priority-10 budget).
    public var frequentPushes: Bool

    /// Creates a change.
    public init(activityID: String, attributesType: String, state: JSONValue, at: Date? = nil,
                frequentPushes: Bool = false) {
        self.activityID = activityID
        self.attributesType = attributesType
        self.state = state
        self.at = at
        self.frequentPushes = frequentPushes
    }
}

/// Why the planner refused a submission. Nothing was recorded.
public enum PushPlannerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The content state is not a JSON object.
    case stateNotObject
    /// The activity was first submitted with another attributes type.
    case attributesTypeMismatch(activityID: String, registered: String, submitted: String)
    /// An identifier that is empty, over 256 bytes or holds control characters.
    case invalidIdentifier(field: String, value: String)
    /// The state did not encode, or the push could not be built from it (too large for APNs).
    case unbuildable(String)

    public var description: String {
        switch self {
        case .stateNotObject: "a content state is a JSON object"
        case .attributesTypeMismatch(let id, let registered, let submitted):
            "activity \(id) is a \(registered), not a \(submitted)"
        case .invalidIdentifier(let field, let value):
            "\(field) '\(value)' is empty, longer than 256 bytes or holds control characters"
        case .unbuildable(let detail): "the push cannot be built: \(detail)"
        }
    }
}
