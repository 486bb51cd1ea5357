import Foundation

/// Identifies one donation.
///
/// Mirrors [IntentDonationIdentifier](https://developer.apple.com/documentation/appintents/intentdonationidentifier).
public struct IntentDonationIdentifier: Sendable, Hashable, Codable {
    /// The identifier's value.
    public let rawValue: UUID

    /// Creates a new, unique identifier.
    public init() {
        rawValue = UUID()
    }
}

/// One donated intent, as handed to the host.
public struct IntentDonation: Sendable {
    /// The donation's identifier.
    public let identifier: IntentDonationIdentifier
    /// The intent performed.
    public let intent: any AppIntent
    /// Its result, when donated with one.
    public let result: (any IntentResult)?
}

/// A host that records donations; it conforms by also being the task's ``HostBinding``.
public protocol IntentDonationHost: HostBinding {
    /// Records a donation. Called synchronously from `IntentDonationManager.donate`.
    func recordDonation(_ donation: IntentDonation)
}
