import Foundation

/// What a provider knows about the widget it is building entries for.
///
/// Mirrors [TimelineProviderContext](https://developer.apple.com/documentation/widgetkit/timelineprovidercontext).
public struct TimelineProviderContext: Sendable {
    /// The widget's family.
    public let family: WidgetFamily
    /// Whether the widget is shown in the widget gallery (snapshot), not placed.
    public let isPreview: Bool
    /// The widget's size in points.
    public let displaySize: CGSize
    /// The environments the widget may be drawn in.
    public let environmentVariants: EnvironmentVariants

    /// Creates a context; hosts call this before asking a provider for entries.
    public init(
        family: WidgetFamily,
        isPreview: Bool,
        displaySize: CGSize,
        environmentVariants: EnvironmentVariants = EnvironmentVariants()
    ) {
        self.family = family
        self.isPreview = isPreview
        self.displaySize = displaySize
        self.environmentVariants = environmentVariants
    }

    /// The SwiftUI environments the widget may be drawn in.
    ///
    /// Empty in WidgetHost, which draws nothing; Apple's subscript by `EnvironmentValues` key path
    /// needs SwiftUI.
    ///
    /// Mirrors [TimelineProviderContext.EnvironmentVariants](https://developer.apple.com/documentation/widgetkit/timelineprovidercontext/environmentvariants).
    public struct EnvironmentVariants: Sendable, Hashable {
        /// Creates an empty set of variants.
        public init() {}
    }
}
