import Foundation
import Synchronization

/// Donations and relevant-intent lists made by user code during one engine call, held until the call returns.
///
/// Like reload requests, they are stored after the provider or intent returned, so user code never waits on the
/// engine's database (and a donation inside a write cannot deadlock).
struct RelevanceSignals: ~Copyable, Sendable {
    private let donations = Mutex<[DonationRecord]>([])
    private let relevantIntents = Mutex<[RelevantIntentRecord]?>(nil)

    func record(_ donation: DonationRecord) {
        donations.withLock { $0.append(donation) }
    }

    func replaceRelevantIntents(_ records: [RelevantIntentRecord]) {
        relevantIntents.withLock { $0 = records }
    }

    /// The donations made so far, in order, and the last relevant-intent list set (nil when none was); clears
    /// both.
    func take() -> (donations: [DonationRecord], relevantIntents: [RelevantIntentRecord]?) {
        let taken = donations.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
        let list = relevantIntents.withLock { pending in
            defer { pending = nil }
            return pending
        }
        return (taken, list)
    }
}
