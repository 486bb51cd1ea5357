/// How a tap reached the app: the whole widget's `widgetURL`, or a `Link` inside it.
public enum TapSource: String, Sendable, Hashable, CaseIterable {
    /// The URL set with `widgetURL(_:)`, used for a tap anywhere outside a `Link`.
    case widgetURL
    /// The URL of a SwiftUI `Link` the user tapped.
    case link
}

/// The widget families (and Live Activity) a route can be restricted to, by WidgetKit's names.
///
/// DeepLinks knows only the names, and which of them can show a `Link`.
public enum WidgetFamilyName: String, Sendable, Hashable, CaseIterable {
    case systemSmall, systemMedium, systemLarge, systemExtraLarge, systemExtraLargePortrait
    case accessoryCircular, accessoryRectangular, accessoryInline, accessoryCorner
    /// A Live Activity (Lock Screen presentation and Dynamic Island).
    case liveActivity

    /// Whether a `Link` in this family receives its own taps.
    ///
    /// Follows Apple's "Linking to specific app scenes from your widget or Live Activity": `Link` works in
    /// `accessoryRectangular`, `systemSmall` and larger (since iOS 17; iOS 14–16 honoured it only in medium and
    /// larger widgets), and in Live Activities. Circular, inline and corner accessories have a single tap
    /// target: their `widgetURL`.
    public var canShowLink: Bool {
        switch self {
        case .systemSmall, .systemMedium, .systemLarge, .systemExtraLarge, .systemExtraLargePortrait,
             .accessoryRectangular, .liveActivity: true
        case .accessoryCircular, .accessoryInline, .accessoryCorner: false
        }
    }
}
