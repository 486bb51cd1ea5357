/// Tells the system that people performed an intent, so it can suggest it later (Smart Stack).
///
/// Donations go to the host bound to the current task when it conforms to ``IntentDonationHost``;
/// with no such host they are dropped.
///
/// Mirrors [IntentDonationManager](https://developer.apple.com/documentation/appintents/intentdonationmanager).
public final class IntentDonationManager: Sendable {
    /// The donation manager.
    public static let shared = IntentDonationManager()

    private init() {}

    /// Donates an intent that people performed.
    ///
    /// - Returns: The donation's identifier.
    @discardableResult
    public func donate<Intent: AppIntent>(intent: Intent) -> IntentDonationIdentifier {
        record(IntentDonation(identifier: IntentDonationIdentifier(), intent: intent, result: nil))
    }

    /// Donates an intent that people performed, with its result.
    ///
    /// - Returns: The donation's identifier.
    @discardableResult
    public func donate<Intent: AppIntent>(
        intent: Intent,
        result: Intent.PerformResult
    ) async throws -> IntentDonationIdentifier {
        record(IntentDonation(identifier: IntentDonationIdentifier(), intent: intent, result: result))
    }

    private func record(_ donation: IntentDonation) -> IntentDonationIdentifier {
        (HostContext.current as? any IntentDonationHost)?.recordDonation(donation)
        return donation.identifier
    }
}

extension AppIntent {
    /// Donates this intent.
    ///
    /// Mirrors [donate()](https://developer.apple.com/documentation/appintents/appintent/donate()).
    @discardableResult
    public func donate() -> IntentDonationIdentifier {
        IntentDonationManager.shared.donate(intent: self)
    }
}
