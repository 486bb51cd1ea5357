import Foundation
import JSON

/// One timeline entry as the engine stores and serves it: its date, its relevance, and its content as JSON.
///
/// Providers return typed entries; the engine keeps this snapshot so an entry can be stored, served over HTTP and
/// read back after a restart without knowing the entry type.
public struct EntrySnapshot: Sendable, Hashable, Codable {
    /// When the entry becomes the one shown.
    public var date: Date
    /// The entry's relevance score, if it has one.
    public var relevanceScore: Float?
    /// How long after `date` the relevance applies, in seconds (0: until the next entry's relevance).
    public var relevanceDuration: TimeInterval?
    /// The entry's stored properties, other than `date` and `relevance`, as JSON.
    public var content: JSONValue

    /// Creates a snapshot.
    public init(date: Date, relevanceScore: Float? = nil, relevanceDuration: TimeInterval? = nil, content: JSONValue) {
        self.date = date
        self.relevanceScore = relevanceScore
        self.relevanceDuration = relevanceDuration
        self.content = content
    }
}

/// When a timeline asks to be rebuilt: the engine's own copy of `TimelineReloadPolicy`, which it can store.
public enum ReloadPolicyRecord: Sendable, Hashable, Codable {
    /// Rebuild after the last entry's date passes.
    case atEnd
    /// Rebuild at (or after) this date, which may be earlier or later than the last entry.
    case after(Date)
    /// Rebuild only when the app asks (`WidgetCenter`) or an interactive intent runs.
    case never
}

/// A validated timeline as stored for one configuration.
public struct StoredTimeline: Sendable, Hashable, Codable {
    /// The entries, sorted by date, never empty.
    public var entries: [EntrySnapshot]
    /// The provider's reload policy.
    public var policy: ReloadPolicyRecord
    /// When the provider produced it, on the engine's clock.
    public var generatedAt: Date

    /// Creates a stored timeline. Use ``TimelineValidator`` to build one from provider output.
    public init(entries: [EntrySnapshot], policy: ReloadPolicyRecord, generatedAt: Date) {
        self.entries = entries
        self.policy = policy
        self.generatedAt = generatedAt
    }

    /// The entry shown at `time`: the latest entry whose date is at or before `time`; before the first entry's
    /// date, the first entry.
    ///
    /// Apple documents only that an entry is shown when its date arrives, possibly late; this rule is WidgetHost's
    /// choice for the rest (see README, "Timeline semantics").
    /// - Parameter time: The instant to look at.
    /// - Returns: The entry and its index.
    public func entry(at time: Date) -> (index: Int, entry: EntrySnapshot) {
        // Binary search for the last entry with date <= time; entries are sorted.
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].date <= time { low = middle + 1 } else { high = middle }
        }
        let index = max(low - 1, 0)
        return (index, entries[index])
    }

    /// When this timeline asks to be rebuilt, or nil for `.never`.
    public var requestedReload: Date? {
        switch policy {
        case .atEnd: entries.last?.date
        case .after(let date): date
        case .never: nil
        }
    }
}
