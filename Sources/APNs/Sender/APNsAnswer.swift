import Foundation
import Push

/// When a push APNs throttled (429), failed on (5xx) or did not answer goes again: an exponential backoff with
/// jitter, and a limit on attempts.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts at most, the first included.
    public var maximumAttempts: Int
    /// The first retry's delay.
    public var firstDelay: Duration
    /// The longest delay.
    public var maximumDelay: Duration

    /// APNs's own advice, as the issue wants it: 1 s doubling up to 60 s, 8 attempts.
    public static let standard = RetryPolicy(maximumAttempts: 8, firstDelay: .seconds(1), maximumDelay: .seconds(60))

    /// Creates a policy.
    public init(maximumAttempts: Int, firstDelay: Duration, maximumDelay: Duration) {
        self.maximumAttempts = maximumAttempts
        self.firstDelay = firstDelay
        self.maximumDelay = maximumDelay
    }

    /// The delay before retry number `retry` (1 for the first): `firstDelay · 2^(retry−1)`, capped, and then a random
    /// point in its upper half, so pushes throttled together do not all come back together.
    public func delay(beforeRetry retry: Int) -> Duration {
        let base = min(maximumDelay.seconds, firstDelay.seconds * pow(2, Double(max(0, min(retry - 1, 30)))))
        return .milliseconds(Int64((base / 2 + Double.random(in: 0...(base / 2))) * 1000))
    }
}

/// What the sender does with each APNs answer: the whole retry policy in one place.
///
/// - 200 → delivered.
/// - 410 (`Unregistered`, `ExpiredToken`) → failed, and the token is invalidated (``DeliveryAttempt/Outcome/unregistered``).
/// - 403 `ExpiredProviderToken` → a new provider token and one retry at once; a second time → failed.
/// - 429 and 5xx → retried after an exponential backoff with jitter (``RetryPolicy``), until
///   ``RetryPolicy/maximumAttempts`` attempts were made; then failed.
/// - No answer (a dropped connection, a timeout, a refused connect) → sent again: at once the first time, then with
///   the backoff, within the same attempt limit.
/// - Every other answer (400 `BadDeviceToken`, `PayloadTooLarge`, `TopicDisallowed`, 403 `InvalidProviderToken`,
///   404, 405, 413) → failed, not retried: sending it again cannot succeed.
enum APNsAnswer {
    /// Decides what happens to `push` after `result`.
    /// - Parameters:
    ///   - providerTokenRenewed: Called when the answer is `ExpiredProviderToken`, before retrying.
    static func decide(_ push: OutboxPush, _ result: Result<HTTP2Response, CurlError>, policy: RetryPolicy,
                       now: Date, providerTokenRenewed: () -> Void) -> DeliveryAttempt {
        let attempt = push.attempts + 1
        switch result {
        case .failure(let error):
            let text = "NoAnswer: \(error)"
            guard attempt < policy.maximumAttempts else { return failed(push, nil, "\(text) (after \(attempt) attempts)") }
            let delay = attempt == 1 ? .zero : policy.delay(beforeRetry: attempt - 1)
            return retry(push, nil, text, at: now.addingTimeInterval(delay.seconds))
        case .success(let response):
            let reason = Self.reason(response)
            switch response.status {
            case 200:
                return DeliveryAttempt(apnsID: push.apnsID, outcome: .delivered, status: 200, result: "delivered")
            case 410:
                return DeliveryAttempt(apnsID: push.apnsID, outcome: .unregistered, status: 410, result: reason)
            case 403 where reason == "ExpiredProviderToken":
                providerTokenRenewed()
                guard push.providerTokenRetries == 0 else {
                    return failed(push, 403, "ExpiredProviderToken (again, with a new provider token)")
                }
                return DeliveryAttempt(apnsID: push.apnsID, outcome: .retry(at: now, providerTokenRetry: true),
                                    status: 403, result: reason)
            case 429, 500...599:
                guard attempt < policy.maximumAttempts else {
                    return failed(push, response.status, "\(reason) (after \(attempt) attempts)")
                }
                return retry(push, response.status, reason,
                             at: now.addingTimeInterval(policy.delay(beforeRetry: attempt).seconds))
            default:
                return failed(push, response.status, reason)
            }
        }
    }

    /// APNs's `reason`, or the status when the body has none.
    static func reason(_ response: HTTP2Response) -> String {
        if let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
           let reason = object["reason"] as? String, !reason.isEmpty {
            return reason
        }
        return "HTTP \(response.status)"
    }

    private static func failed(_ push: OutboxPush, _ status: Int?, _ result: String) -> DeliveryAttempt {
        DeliveryAttempt(apnsID: push.apnsID, outcome: .failed, status: status, result: result)
    }

    private static func retry(_ push: OutboxPush, _ status: Int?, _ result: String, at date: Date) -> DeliveryAttempt {
        DeliveryAttempt(apnsID: push.apnsID, outcome: .retry(at: date, providerTokenRetry: false), status: status,
                     result: result)
    }
}
