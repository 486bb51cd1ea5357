import AppIntents
import Foundation

/// Donations and relevant-intent lists made inside `perform()` reach the engine as they do from providers.
///
/// They are stored once `perform()` has returned without throwing, and not for dry runs: a donation says the user
/// did something, and a rolled-back perform did nothing.
extension PerformBinding: IntentDonationHost, RelevantIntentHost {
    func recordDonation(_ donation: IntentDonation) {
        relevanceSignals.record(DonationRecord(donation, at: HostEnvironment.current?.now ?? Date()))
    }

    func updateRelevantIntents(_ relevantIntents: [RelevantIntent]) async throws {
        relevanceSignals.replaceRelevantIntents(relevantIntents.map(RelevantIntentRecord.init))
    }
}
