import AppIntents
import Foundation

/// Donations and relevant-intent lists made by user code (a provider or `perform()`) reach the engine the same way.
extension UserCodeBinding: IntentDonationHost, RelevantIntentHost {
    func recordDonation(_ donation: IntentDonation) {
        // Donations are synchronous calls from user code: the engine's now is the one bound to the task.
        relevanceSignals.record(DonationRecord(donation, at: HostEnvironment.current?.now ?? Date()))
    }

    func updateRelevantIntents(_ relevantIntents: [RelevantIntent]) async throws {
        relevanceSignals.replaceRelevantIntents(relevantIntents.map(RelevantIntentRecord.init))
    }
}
