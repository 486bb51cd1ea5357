import Foundation

/// One state of a widget: what it shows from ``date`` on.
///
/// Mirrors [TimelineEntry](https://developer.apple.com/documentation/widgetkit/timelineentry).
public protocol TimelineEntry {
    /// When the widget starts showing this entry.
    var date: Date { get }

    /// How relevant the entry is for Smart Stack rotation; `nil` (the default) keeps the previous
    /// relevance.
    var relevance: TimelineEntryRelevance? { get }
}

extension TimelineEntry {
    /// No relevance: the previous relevance stays in effect.
    public var relevance: TimelineEntryRelevance? { nil }
}
