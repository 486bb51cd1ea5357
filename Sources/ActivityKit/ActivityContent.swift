import Foundation

/// A Live Activity's state at one moment, with when it goes stale and how relevant it is.
///
/// Mirrors [ActivityContent](https://developer.apple.com/documentation/activitykit/activitycontent).
public struct ActivityContent<State: Decodable & Encodable & Hashable>: Hashable, Codable {
    /// The content state.
    public var state: State
    /// When the content is out of date, if ever.
    public var staleDate: Date?
    /// Relative relevance among the app's activities; the highest gets the Dynamic Island.
    public var relevanceScore: Double

    /// Creates content.
    public init(state: State, staleDate: Date?, relevanceScore: Double = 0.0) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

extension ActivityContent: Sendable where State: Sendable {}
