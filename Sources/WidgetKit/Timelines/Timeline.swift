/// A widget's entries and when to ask for the next timeline.
///
/// Mirrors [Timeline](https://developer.apple.com/documentation/widgetkit/timeline).
public struct Timeline<EntryType: TimelineEntry> {
    /// The entries, normally in date order with the first dated now.
    public let entries: [EntryType]
    /// When to ask the provider for a new timeline.
    public let policy: TimelineReloadPolicy

    /// Creates a timeline.
    ///
    /// Mirrors [init(entries:policy:)](https://developer.apple.com/documentation/widgetkit/timeline/init(entries:policy:)).
    public init(entries: [EntryType], policy: TimelineReloadPolicy) {
        self.entries = entries
        self.policy = policy
    }
}

extension Timeline: Sendable where EntryType: Sendable {}
