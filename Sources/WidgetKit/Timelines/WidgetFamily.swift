/// A widget's size and shape.
///
/// Deliberate difference from Apple: the raw values are the case names (`"systemSmall"`), not
/// integers, so stored configurations and JSON stay readable and stable when cases are added.
///
/// Mirrors [WidgetFamily](https://developer.apple.com/documentation/widgetkit/widgetfamily).
public enum WidgetFamily: String, CaseIterable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// A small home-screen widget.
    case systemSmall
    /// A medium home-screen widget.
    case systemMedium
    /// A large home-screen widget.
    case systemLarge
    /// An extra-large widget (iPadOS, macOS).
    case systemExtraLarge
    /// An extra-large portrait widget (visionOS).
    case systemExtraLargePortrait
    /// A circular accessory (Lock Screen, watch face).
    case accessoryCircular
    /// A rectangular accessory (Lock Screen, watch face).
    case accessoryRectangular
    /// A single line of text above the time (Lock Screen, watch face).
    case accessoryInline
    /// A watch-face corner (watchOS).
    case accessoryCorner

    /// The case name, for example `"systemSmall"`.
    public var description: String { rawValue }
}
