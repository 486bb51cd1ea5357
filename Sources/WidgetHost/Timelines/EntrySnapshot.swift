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
    ///
    /// An entry fresh from a provider holds its content as the text the engine stores, and reads it into a value
    /// only here, when asked: a rebuild stores every entry but looks into none.
    public var content: JSONValue {
        get {
            switch storage {
            case .value(let value): return value
            case .text(let text): return Self.parse(text)
            }
        }
        set { storage = .value(newValue) }
    }

    /// The content, as a value or as canonical JSON text (``JSONValue/canonicalText``'s bytes). The text of a
    /// timeline's entries is one buffer, each entry holding its slice of it.
    private enum Content: Sendable {
        case value(JSONValue)
        case text(ArraySlice<UInt8>)
    }

    private var storage: Content

    /// Creates a snapshot.
    public init(date: Date, relevanceScore: Float? = nil, relevanceDuration: TimeInterval? = nil, content: JSONValue) {
        self.date = date
        self.relevanceScore = relevanceScore
        self.relevanceDuration = relevanceDuration
        self.storage = .value(content)
    }

    /// Creates a snapshot whose content is already canonical JSON text, as ``JSONTextEncoder`` writes it.
    init(date: Date, relevanceScore: Float?, relevanceDuration: TimeInterval?, contentText: ArraySlice<UInt8>) {
        self.date = date
        self.relevanceScore = relevanceScore
        self.relevanceDuration = relevanceDuration
        self.storage = .text(contentText)
    }

    /// The content's canonical text when the snapshot holds it as text (the stored timeline copies it as is).
    var contentText: ArraySlice<UInt8>? {
        if case .text(let text) = storage { text } else { nil }
    }

    private static func parse(_ text: ArraySlice<UInt8>) -> JSONValue {
        do {
            return try JSONParser.parse(Data(text))
        } catch {
            preconditionFailure("an entry's content text is written by JSONTextEncoder: \(error)")
        }
    }

    private enum CodingKeys: String, CodingKey {
        case content, date, relevanceDuration, relevanceScore
    }

    /// Decodes a snapshot as stored: `content`, `date` and the optional relevance fields.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(date: try container.decode(Date.self, forKey: .date),
                  relevanceScore: try container.decodeIfPresent(Float.self, forKey: .relevanceScore),
                  relevanceDuration: try container.decodeIfPresent(TimeInterval.self, forKey: .relevanceDuration),
                  content: try container.decode(JSONValue.self, forKey: .content))
    }

    /// Encodes the snapshot as stored (the shape ``init(from:)`` reads).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(content, forKey: .content)
        try container.encode(date, forKey: .date)
        try container.encodeIfPresent(relevanceDuration, forKey: .relevanceDuration)
        try container.encodeIfPresent(relevanceScore, forKey: .relevanceScore)
    }

    /// Snapshots are equal when their dates, relevance and content values are.
    public static func == (lhs: EntrySnapshot, rhs: EntrySnapshot) -> Bool {
        lhs.date == rhs.date && lhs.relevanceScore == rhs.relevanceScore
            && lhs.relevanceDuration == rhs.relevanceDuration && lhs.content == rhs.content
    }

    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(date)
        hasher.combine(relevanceScore)
        hasher.combine(relevanceDuration)
        hasher.combine(content)
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
