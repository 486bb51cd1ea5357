import Foundation

/// The knobs of Smart Stack ranking. Apple documents the inputs but not how it weighs them; these are
/// WidgetHost's choices, documented in `Docs/smart-stacks.md`.
///
/// Each signal is first brought to 0...1 (entry relevance by the widget kind's own scale; donations and taps by
/// `s / (s + 1)` of their decayed count; date contexts by their window), then weighted and summed.
public struct RankingPolicy: Sendable, Hashable, Codable {
    /// Weight of the entry's normalised relevance.
    public var entryWeight: Double
    /// Weight of matching intent donations.
    public var donationWeight: Double
    /// Weight of matching relevant date contexts.
    public var contextWeight: Double
    /// Weight of recent taps.
    public var tapWeight: Double
    /// A tap's contribution halves every `tapHalfLife` seconds.
    public var tapHalfLife: TimeInterval
    /// A donation's contribution halves every `donationHalfLife` seconds.
    public var donationHalfLife: TimeInterval
    /// Signals older than this many half-lives are ignored (they would add less than 0.1 %).
    public var horizonHalfLives: Double
    /// An instance stays on top at least this long before another may replace it (the rotation rate limit).
    public var minimumDwell: TimeInterval
    /// A challenger replaces the top only when its total beats the top's by at least this much (hysteresis).
    public var hysteresisMargin: Double
    /// A `RelevantContext.date(_:)` clue is relevant this long on each side of its date, fading linearly.
    public var exactDateReach: TimeInterval

    /// Creates a policy.
    public init(entryWeight: Double = 1.0, donationWeight: Double = 0.5, contextWeight: Double = 0.8,
                tapWeight: Double = 0.5, tapHalfLife: TimeInterval = 6 * 3600,
                donationHalfLife: TimeInterval = 24 * 3600, horizonHalfLives: Double = 10,
                minimumDwell: TimeInterval = 15 * 60, hysteresisMargin: Double = 0.15,
                exactDateReach: TimeInterval = 3600) {
        self.entryWeight = entryWeight
        self.donationWeight = donationWeight
        self.contextWeight = contextWeight
        self.tapWeight = tapWeight
        self.tapHalfLife = tapHalfLife
        self.donationHalfLife = donationHalfLife
        self.horizonHalfLives = horizonHalfLives
        self.minimumDwell = minimumDwell
        self.hysteresisMargin = hysteresisMargin
        self.exactDateReach = exactDateReach
    }

    /// The defaults: entry 1.0, contexts 0.8, donations 0.5, taps 0.5; tap half-life 6 h, donation half-life
    /// 24 h; 15 minutes' dwell; margin 0.15.
    public static let `default` = RankingPolicy()

    /// `0.5^(age / halfLife)` for an event `age` seconds old; future events count as now.
    static func decay(age: TimeInterval, halfLife: TimeInterval) -> Double {
        guard halfLife > 0 else { return age <= 0 ? 1 : 0 }
        return pow(0.5, max(age, 0) / halfLife)
    }

    /// Brings a sum of decayed events to 0..<1: one fresh event gives 0.5, three give 0.75.
    static func saturate(_ sum: Double) -> Double {
        sum <= 0 ? 0 : sum / (sum + 1)
    }
}
