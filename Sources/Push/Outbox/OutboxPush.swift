import Foundation

/// One planned push in the outbox: addressed, with its headers and payload as they will be sent.
public struct OutboxPush: Sendable, Hashable {
    /// Where the push is in its delivery.
    public enum Status: String, Sendable, Hashable, CaseIterable, Codable {
        /// Waiting to be sent.
        case pending
        /// Handed over (to APNs, or to the engine's device), with the ``lastResult``.
        case delivered
        /// Refused for good; ``lastResult`` says why.
        case failed
    }

    /// `apns-id`: the push's UUID, as APNs echoes it.
    public var apnsID: UUID
    /// The activity.
    public var activityID: String
    /// `update` or `end`.
    public var event: LiveActivityEvent
    /// The activity's update token when the push was planned (nil for a channel push).
    public var deviceToken: Data?
    /// The headers (`apns-channel-id` in them for a broadcast).
    public var headers: PushHeaders
    /// The payload's bytes, built by ``LiveActivityPush``.
    public var payload: Data
    /// When it was planned: the payload's `timestamp`.
    public var createdAt: Date
    /// When it may be sent.
    public var dueAt: Date
    /// Pending, delivered or failed.
    public var status: Status
    /// How many times a delivery was attempted.
    public var attempts: Int
    /// What the last attempt answered (`applied`, `ignored: stale_timestamp …`, an APNs reason).
    public var lastResult: String?
    /// The HTTP status of APNs's last answer (nil before one, or when no answer came).
    public var apnsStatus: Int? = nil
    /// `apns-collapse-id`, for a caller's own push.
    public var collapseID: String? = nil
    /// When a pending push that was answered with a retryable error may go again (nil: as soon as it is due).
    public var nextAttemptAt: Date? = nil
    /// When it was delivered or failed for good.
    public var finishedAt: Date? = nil
    /// How many times it was sent again after APNs answered `ExpiredProviderToken` (at most once).
    public var providerTokenRetries: Int = 0

    /// `apns-priority`: 5 or 10.
    public var priority: Int { headers.priority?.rawValue ?? 10 }
}

extension OutboxPush {
    /// Creates a push for ``PushOutbox/enqueue(_:)``: a caller's own, next to the planner's.
    /// - Parameters:
    ///   - apnsID: Its `apns-id` (a fresh UUID unless the caller keeps its own).
    ///   - activityID: The activity it concerns, or empty for none (a widget push).
    ///   - dueAt: When it may be sent (now unless later).
    public init(apnsID: UUID = UUID(), activityID: String = "", event: LiveActivityEvent = .update, deviceToken: Data?,
                headers: PushHeaders, payload: Data, collapseID: String? = nil, createdAt: Date, dueAt: Date) {
        self.init(apnsID: apnsID, activityID: activityID, event: event, deviceToken: deviceToken, headers: headers,
                  payload: payload, createdAt: createdAt, dueAt: dueAt, status: .pending, attempts: 0, lastResult: nil,
                  collapseID: collapseID)
    }
}
