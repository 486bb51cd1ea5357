import Foundation

/// The answer to "which widget should be on top of this stack at T, and why?".
public struct StackRanking: Sendable, Hashable, Codable {
    /// The stack.
    public var stackID: String
    /// The instant ranked.
    public var evaluatedAt: Date
    /// The instance on top, nil for an empty stack.
    public var top: String?
    /// Since when it has been on top.
    public var topSince: Date?
    /// Why the top is what it is.
    public var decision: RotationDecision
    /// Every instance: the top first, then by total score (highest first), ties by stack position.
    public var instances: [RankedInstance]
    /// The policy used.
    public var policy: RankingPolicy
}

/// One instance's score and its parts.
public struct RankedInstance: Sendable, Hashable, Codable {
    /// The instance.
    public var instanceID: String
    /// Its kind.
    public var kind: String
    /// Its family.
    public var family: String
    /// Its position in the stack (0 first).
    public var position: Int
    /// The weighted sum of the parts.
    public var total: Double
    /// What each signal contributed.
    public var parts: ScoreParts
    /// False when the entry said "not relevant" (score ≤ 0): it never rotates to the top.
    public var eligible: Bool
}

/// The signals behind one instance's score, each before weighting (see ``RankingPolicy``).
public struct ScoreParts: Sendable, Hashable, Codable {
    /// The entry relevance in effect, on the widget's own scale.
    public var entry: EntryRelevance
    /// The highest positive score the widget kind's stored timelines declare: its scale.
    public var entryScale: Float?
    /// ``entry``'s score divided by ``entryScale``, 0...1 (0 when there is none or it is ≤ 0).
    public var entryNormalised: Double
    /// Matching donations, decayed and saturated, 0..<1.
    public var donation: Double
    /// How many matching donations were counted (within the horizon).
    public var donationCount: Int
    /// The strongest matching relevant date context now, 0...1.
    public var context: Double
    /// Recent taps on the widget, decayed and saturated, 0..<1.
    public var taps: Double
    /// How many taps were counted (within the horizon).
    public var tapCount: Int
}

/// Why the top of a stack is what it is after a ranking.
public enum RotationDecision: Sendable, Hashable, Codable {
    /// The stack had no top yet: the best eligible instance (or the first one) took it.
    case initial
    /// The top is still the best.
    case keptLeader
    /// A challenger leads, but the top has not been there for the minimum dwell time yet.
    case keptMinimumDwell(challenger: String, until: Date)
    /// A challenger leads, but by less than the hysteresis margin.
    case keptWithinMargin(challenger: String, lead: Double)
    /// The challenger beat the top by the margin after the dwell time (or the top left the stack or became
    /// ineligible).
    case rotated(from: String?)
    /// The instant is before the stored rotation state: ranked as if the stack had no top, nothing stored.
    case historical
    /// The stack is empty.
    case empty
}
