import Foundation
import WidgetHost

extension V1 {
    /// `POST /v1/stacks`: a new Smart Stack of placed instances, in the user's order.
    struct CreateStackRequest: Decodable {
        /// The stack's id: 1–128 characters of `A-Z a-z 0-9 . _ -`, not starting with `.`.
        var id: String
        var instances: [String]?
    }

    /// `PUT /v1/stacks/{id}`: the stack's instances, replacing the previous ones.
    struct ReplaceStackRequest: Decodable {
        var instances: [String]
    }

    /// `GET /v1/stacks`.
    package struct StackList: Encodable {
        var stacks: [Stack]

        package init(_ stacks: [SmartStack]) {
            self.stacks = stacks.map(Stack.init)
        }
    }

    /// A Smart Stack: its instances in the user's order (the ranking's tie-breaker).
    struct Stack: Encodable {
        var id: String
        var instances: [String]
        var createdAt: Date

        init(_ stack: SmartStack) {
            id = stack.id
            instances = stack.instanceIDs
            createdAt = stack.createdAt
        }
    }

    /// `GET /v1/stacks/{id}/ranking`: which instance is on top at `evaluatedAt`, why, and every instance's score.
    package struct StackRanking: Encodable {
        var stack: String
        var evaluatedAt: Date
        /// Absent for an empty stack.
        var top: String?
        var topSince: Date?
        var decision: RotationDecision
        /// The top first, then by total score (highest first), ties by stack position.
        var instances: [RankedInstance]
        var policy: RankingPolicy

        package init(_ ranking: WidgetHost.StackRanking) {
            stack = ranking.stackID
            evaluatedAt = ranking.evaluatedAt
            top = ranking.top
            topSince = ranking.topSince
            decision = RotationDecision(ranking.decision)
            instances = ranking.instances.map(RankedInstance.init)
            policy = RankingPolicy(ranking.policy)
        }
    }

    /// Why the top is what it is.
    struct RotationDecision: Encodable {
        /// `initial`, `kept-leader`, `kept-minimum-dwell`, `kept-within-margin`, `rotated`, `historical` or `empty`.
        var outcome: String
        /// For `kept-minimum-dwell` and `kept-within-margin`: the instance that leads without taking the top.
        var challenger: String?
        /// For `kept-minimum-dwell`: when the top may be replaced.
        var until: Date?
        /// For `kept-within-margin`: the challenger's lead, less than the margin.
        var lead: Double?
        /// For `rotated`: the previous top (absent when it had left the stack).
        var from: String?

        init(_ decision: WidgetHost.RotationDecision) {
            switch decision {
            case .initial: outcome = "initial"
            case .keptLeader: outcome = "kept-leader"
            case .keptMinimumDwell(let challenger, let until):
                outcome = "kept-minimum-dwell"
                self.challenger = challenger
                self.until = until
            case .keptWithinMargin(let challenger, let lead):
                outcome = "kept-within-margin"
                self.challenger = challenger
                self.lead = lead
            case .rotated(let from):
                outcome = "rotated"
                self.from = from
            case .historical: outcome = "historical"
            case .empty: outcome = "empty"
            }
        }
    }

    /// One instance's score and what each signal contributed.
    struct RankedInstance: Encodable {
        var instance: String
        var kind: String
        var family: String
        /// Its position in the stack, 0 first.
        var position: Int
        /// The weighted sum of the parts.
        var total: Double
        /// False when its entry said "not relevant" (score ≤ 0): it never rotates to the top.
        var eligible: Bool
        var parts: ScoreParts

        init(_ ranked: WidgetHost.RankedInstance) {
            instance = ranked.instanceID
            kind = ranked.kind
            family = ranked.family
            position = ranked.position
            total = ranked.total
            eligible = ranked.eligible
            parts = ScoreParts(ranked.parts)
        }
    }

    /// The signals behind a score, each before weighting.
    struct ScoreParts: Encodable {
        /// `none`, `active`, `expired` or `carriedOver`.
        var entryState: String
        /// The entry relevance score in effect, on the widget's own scale.
        var entryScore: Double?
        var entrySetAt: Date?
        var entryValidUntil: Date?
        /// The highest positive score the kind's timelines declare: its scale.
        var entryScale: Double?
        /// `entryScore / entryScale`, 0...1.
        var entryNormalised: Double
        /// Matching donations, decayed and saturated, 0..<1.
        var donation: Double
        var donationCount: Int
        /// The strongest matching relevant date context, 0...1.
        var context: Double
        /// Recent taps, decayed and saturated, 0..<1.
        var taps: Double
        var tapCount: Int

        init(_ parts: WidgetHost.ScoreParts) {
            entryState = parts.entry.state.rawValue
            // Through the shortest decimal text, so a Float 0.8 is sent as 0.8, not 0.800000011920929.
            entryScore = parts.entry.score.flatMap { Double(String($0)) }
            entrySetAt = parts.entry.setAt
            entryValidUntil = parts.entry.validUntil
            entryScale = parts.entryScale.flatMap { Double(String($0)) }
            entryNormalised = parts.entryNormalised
            donation = parts.donation
            donationCount = parts.donationCount
            context = parts.context
            taps = parts.taps
            tapCount = parts.tapCount
        }
    }

    /// The weights and limits a ranking used.
    struct RankingPolicy: Encodable {
        var entryWeight: Double
        var donationWeight: Double
        var contextWeight: Double
        var tapWeight: Double
        var tapHalfLifeSeconds: Double
        var donationHalfLifeSeconds: Double
        var minimumDwellSeconds: Double
        var hysteresisMargin: Double

        init(_ policy: WidgetHost.RankingPolicy) {
            entryWeight = policy.entryWeight
            donationWeight = policy.donationWeight
            contextWeight = policy.contextWeight
            tapWeight = policy.tapWeight
            tapHalfLifeSeconds = policy.tapHalfLife
            donationHalfLifeSeconds = policy.donationHalfLife
            minimumDwellSeconds = policy.minimumDwell
            hysteresisMargin = policy.hysteresisMargin
        }
    }
}
