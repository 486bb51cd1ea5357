import AppIntents
import Foundation
import WidgetKit

/// A registered widget kind: what a host can place.
public struct WidgetKindDescriptor: Sendable {
    /// The kind string (`StaticConfiguration(kind:)` / `AppIntentConfiguration(kind:)`).
    public let kind: String
    /// The name shown in the widget gallery.
    public let displayName: String
    /// The description shown in the widget gallery.
    public let description: String
    /// Families the kind supports, in declaration order.
    public let supportedFamilies: [WidgetFamily]
    let source: any TimelineSource

    /// The configuration intent's type name, or nil for a static widget.
    public var intentTypeName: String? { source.intentTypeName }

    /// The configuration intent's parameters in declaration order (empty for a static widget).
    public var parameters: [IntentParameterDeclaration] { source.parameterDeclarations }
}

extension WidgetFamily {
    /// The families a kind supports when it does not say: the iPhone home screen and Lock Screen families,
    /// which is what `supportedFamilies(_:)` defaults to on iOS.
    public static let iPhoneDefaults: [WidgetFamily] = [
        .systemSmall, .systemMedium, .systemLarge, .accessoryCircular, .accessoryRectangular, .accessoryInline,
    ]

    /// A typical display size in points for this family on a 6.1-inch iPhone (iPad sizes for extra large), the
    /// value `TimelineProviderContext.displaySize` carries.
    public var typicalDisplaySize: CGSize {
        switch self {
        case .systemSmall: CGSize(width: 158, height: 158)
        case .systemMedium: CGSize(width: 338, height: 158)
        case .systemLarge: CGSize(width: 338, height: 354)
        case .systemExtraLarge: CGSize(width: 715, height: 330)
        case .systemExtraLargePortrait: CGSize(width: 330, height: 715)
        case .accessoryCircular: CGSize(width: 72, height: 72)
        case .accessoryRectangular: CGSize(width: 160, height: 72)
        case .accessoryInline: CGSize(width: 234, height: 26)
        case .accessoryCorner: CGSize(width: 48, height: 48)
        }
    }
}
