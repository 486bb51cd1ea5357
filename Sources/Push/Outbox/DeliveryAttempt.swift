import Foundation

/// What a sender records for one push after an attempt: APNs's answer decided.
public struct DeliveryAttempt: Sendable, Hashable {
    /// Where the push goes next.
    public enum Outcome: Sendable, Hashable {
        /// APNs accepted it (200).
        case delivered
        /// Refused for good (a 400, a second `ExpiredProviderToken`, the last of the attempts, a channel push).
        case failed
        /// To be sent again, not before `at` (429, 5xx, a dropped connection, a first `ExpiredProviderToken`).
        /// `providerTokenRetry` marks the retry that follows `ExpiredProviderToken`, which is allowed once.
        case retry(at: Date, providerTokenRetry: Bool)
        /// APNs answered 410: the token is dead. It is invalidated in the registry, the push fails, and so does every
        /// other pending push to that token.
        case unregistered
    }

    /// The push's `apns-id`.
    public var apnsID: UUID
    /// What happens to it.
    public var outcome: Outcome
    /// The HTTP status of the answer, nil when none came (a dropped connection).
    public var status: Int?
    /// The result as the outbox shows it: `delivered`, APNs's reason, or the transport error.
    public var result: String

    /// Creates a result.
    public init(apnsID: UUID, outcome: Outcome, status: Int?, result: String) {
        self.apnsID = apnsID
        self.outcome = outcome
        self.status = status
        self.result = result
    }
}
