import Foundation

/// Scores instances and applies the rotation rules; pure, so the same inputs always give the same answer.
///
/// Order: total score, highest first; ties go to the earlier stack position, then the smaller instance id.
///
/// Rotation rules (see `Docs/smart-stacks.md`):
/// 1. With no top yet, the best eligible instance takes the top (the first instance when none is eligible).
/// 2. The top stays for at least ``RankingPolicy/minimumDwell`` (rate limit).
/// 3. After that, a challenger takes the top only when its total beats the top's by at least
///    ``RankingPolicy/hysteresisMargin`` (hysteresis), or when the top has become ineligible (score ≤ 0).
/// 4. Instances whose entry relevance is ≤ 0 never rotate to the top.
/// 5. A top that left the stack is replaced at once, as in rule 1.
struct StackRanker {
    /// What ranking knows about one instance.
    struct Input {
        var instanceID: String
        var kind: String
        var family: String
        var position: Int
        var entry: EntryRelevance
        var scale: Float?
        var donationAges: [TimeInterval]
        var context: Double
        var tapAges: [TimeInterval]
    }

    /// The stored top of a stack.
    struct Incumbent: Equatable {
        var instanceID: String
        var since: Date
    }

    /// The top after a ranking, and whether to store it.
    struct Outcome {
        var top: String?
        var since: Date?
        var decision: RotationDecision
        var shouldStore: Bool
    }

    let policy: RankingPolicy

    func score(_ input: Input) -> RankedInstance {
        var normalised = 0.0
        if let score = input.entry.score, score > 0, let scale = input.scale, scale > 0 {
            normalised = min(1, Double(score) / Double(scale))
        }
        let donation = RankingPolicy.saturate(input.donationAges.reduce(0) {
            $0 + RankingPolicy.decay(age: $1, halfLife: policy.donationHalfLife)
        })
        let taps = RankingPolicy.saturate(input.tapAges.reduce(0) {
            $0 + RankingPolicy.decay(age: $1, halfLife: policy.tapHalfLife)
        })
        let parts = ScoreParts(entry: input.entry, entryScale: input.scale, entryNormalised: normalised,
                               donation: donation, donationCount: input.donationAges.count,
                               context: input.context, taps: taps, tapCount: input.tapAges.count)
        let total = policy.entryWeight * normalised + policy.donationWeight * donation
            + policy.contextWeight * input.context + policy.tapWeight * taps
        return RankedInstance(instanceID: input.instanceID, kind: input.kind, family: input.family,
                              position: input.position, total: total, parts: parts,
                              eligible: !input.entry.isExplicitlyIrrelevant)
    }

    /// Instances by total (highest first), ties by position then id.
    func ordered(_ ranked: [RankedInstance]) -> [RankedInstance] {
        ranked.sorted { lhs, rhs in
            if lhs.total != rhs.total { return lhs.total > rhs.total }
            if lhs.position != rhs.position { return lhs.position < rhs.position }
            return lhs.instanceID < rhs.instanceID
        }
    }

    /// Applies the rotation rules to instances already ``ordered(_:)``.
    func decide(_ ordered: [RankedInstance], incumbent: Incumbent?, at time: Date) -> Outcome {
        guard !ordered.isEmpty else { return Outcome(top: nil, since: nil, decision: .empty, shouldStore: false) }
        let best = ordered.first { $0.eligible }
        let fallback = best ?? ordered.min { $0.position < $1.position }
        guard let incumbent else {
            return Outcome(top: fallback?.instanceID, since: time, decision: .initial, shouldStore: true)
        }
        if time < incumbent.since {
            return Outcome(top: fallback?.instanceID, since: nil, decision: .historical, shouldStore: false)
        }
        guard let current = ordered.first(where: { $0.instanceID == incumbent.instanceID }) else {
            return Outcome(top: fallback?.instanceID, since: time, decision: .rotated(from: incumbent.instanceID),
                           shouldStore: true)
        }
        let kept = Outcome(top: current.instanceID, since: incumbent.since, decision: .keptLeader, shouldStore: true)
        guard let challenger = best, challenger.instanceID != current.instanceID else { return kept }
        let dwellEnds = incumbent.since.addingTimeInterval(policy.minimumDwell)
        if time < dwellEnds {
            var outcome = kept
            outcome.decision = .keptMinimumDwell(challenger: challenger.instanceID, until: dwellEnds)
            return outcome
        }
        let lead = challenger.total - current.total
        if current.eligible && lead < policy.hysteresisMargin {
            var outcome = kept
            outcome.decision = .keptWithinMargin(challenger: challenger.instanceID, lead: lead)
            return outcome
        }
        return Outcome(top: challenger.instanceID, since: time, decision: .rotated(from: current.instanceID),
                       shouldStore: true)
    }
}
