import Foundation

/// How relevant an entry is, for ordering a Smart Stack.
///
/// Only the relative size of scores matters; a score of zero or less means "not relevant".
///
/// Mirrors [TimelineEntryRelevance](https://developer.apple.com/documentation/widgetkit/timelineentryrelevance).
public struct TimelineEntryRelevance: Codable, Hashable, Sendable {
    /// The score, on a scale the app chooses and keeps consistent.
    public var score: Float
    /// For how many seconds after the entry's date the score applies; 0 means until the next entry.
    public var duration: TimeInterval

    /// Creates a relevance.
    public init(score: Float, duration: TimeInterval = 0.0) {
        self.score = score
        self.duration = duration
    }
}
