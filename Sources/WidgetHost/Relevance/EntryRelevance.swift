import Foundation

/// The relevance a widget's timeline gives it at one instant, following `TimelineEntryRelevance`'s rules.
///
/// - An entry's relevance applies from the entry's date for `duration` seconds; a duration of 0 means until a
///   later entry sets another relevance.
/// - An entry whose `relevance` is nil keeps the previous relevance, also across timelines: when no entry of the
///   current timeline up to the instant has a relevance, the configuration's previous timeline (kept by the
///   engine store) is asked, with only its entries dated before the current timeline was generated.
/// - A score of 0 or less means "not relevant": such a widget is never rotated to the top. A later score of 0
///   removes an earlier relevance.
/// - Before a timeline's first entry date, the timeline gives no relevance (relevance applies from the date).
public struct EntryRelevance: Sendable, Hashable, Codable {
    /// Where the relevance came from.
    public enum State: String, Sendable, Hashable, Codable {
        /// No entry up to now has a relevance.
        case none
        /// An entry's relevance applies now.
        case active
        /// The last relevance set has run past its duration.
        case expired
        /// Taken from the configuration's previous timeline (nil keeps the previous relevance).
        case carriedOver
    }

    /// The score in effect, on the widget's own scale; nil for ``State/none`` and ``State/expired``.
    public var score: Float?
    /// Which entry's date it was set at.
    public var setAt: Date?
    /// Until when it applies; nil for "until the next relevance".
    public var validUntil: Date?
    /// Where it came from.
    public var state: State

    /// No relevance.
    public static let none = EntryRelevance(score: nil, setAt: nil, validUntil: nil, state: .none)

    /// Whether the widget said it is not relevant (score ≤ 0): it must not rotate to the top.
    public var isExplicitlyIrrelevant: Bool {
        guard let score else { return false }
        return score <= 0
    }

    /// Evaluates `timeline` at `time`, falling back to `previous` as described on the type.
    static func evaluate(_ timeline: StoredTimeline?, previous: StoredTimeline?, at time: Date) -> EntryRelevance {
        if let timeline, let found = lastSet(in: timeline.entries, through: time, before: nil) {
            return found.applying(at: time)
        }
        // The current timeline has not spoken (yet): nil keeps the previous timeline's relevance.
        guard let previous, let cutoff = timeline?.generatedAt ?? previous.entries.last?.date,
              var found = lastSet(in: previous.entries, through: time, before: cutoff) else { return .none }
        found = found.applying(at: time)
        if found.state == .active { found.state = .carriedOver }
        return found
    }

    /// The last entry dated at or before `time` (and before `cutoff`) that sets a relevance.
    private static func lastSet(in entries: [EntrySnapshot], through time: Date, before cutoff: Date?)
        -> EntryRelevance? {
        for entry in entries.reversed() where entry.date <= time && (cutoff.map { entry.date < $0 } ?? true) {
            guard let score = entry.relevanceScore else { continue }
            let duration = entry.relevanceDuration ?? 0
            return EntryRelevance(score: score, setAt: entry.date,
                                  validUntil: duration > 0 ? entry.date.addingTimeInterval(duration) : nil,
                                  state: .active)
        }
        return nil
    }

    private func applying(at time: Date) -> EntryRelevance {
        guard let validUntil, time >= validUntil else { return self }
        return EntryRelevance(score: nil, setAt: setAt, validUntil: validUntil, state: .expired)
    }

    /// Every positive score a timeline declares: the widget's scale comes from these.
    static func positiveScores(_ timeline: StoredTimeline?) -> [Float] {
        timeline?.entries.compactMap { $0.relevanceScore }.filter { $0 > 0 } ?? []
    }
}
