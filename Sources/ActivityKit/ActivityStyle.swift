/// How long a Live Activity stays in view.
///
/// Mirrors [ActivityStyle](https://developer.apple.com/documentation/activitykit/activitystyle).
public enum ActivityStyle: String, Sendable, Hashable, Codable, CaseIterable {
    /// Stays until it ends and is dismissed.
    case standard
    /// Shown briefly; WidgetHost keeps its life as for `standard` and records the style.
    case transient
}
