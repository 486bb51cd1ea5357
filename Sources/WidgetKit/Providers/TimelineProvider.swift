/// Supplies the entries of a widget that has no configuration.
///
/// Hosts call ``placeholder(in:)`` for a redacted first draw, ``getSnapshot(in:completion:)`` for the
/// widget gallery (`context.isPreview`), and ``getTimeline(in:completion:)`` for placed widgets.
/// Completion handlers must be called exactly once.
///
/// Mirrors [TimelineProvider](https://developer.apple.com/documentation/widgetkit/timelineprovider).
public protocol TimelineProvider {
    /// The provider's entry type.
    associatedtype Entry: TimelineEntry

    /// The context passed to every call.
    typealias Context = TimelineProviderContext

    /// Returns an entry with sample content, at once.
    func placeholder(in context: Context) -> Entry

    /// Calls `completion` with one entry for the widget gallery.
    func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void)

    /// Calls `completion` with the widget's timeline.
    func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void)
}
