import DeepLinks
import Foundation

/// Where on the device a widget was tapped.
public enum TapLocation: String, Sendable, Hashable, Codable, CaseIterable {
    /// A widget on the Home Screen (alone or in a Smart Stack).
    case homeScreen
    /// A Lock Screen (accessory) widget.
    case lockScreen
    /// A widget in StandBy.
    case standBy
}

/// One widget tap to record: the URL the app received, which widget, how, where and when.
///
/// Name the widget by its instance id (kind and family are then read from the engine), or by kind and family
/// when the instance is not known to the engine (taps relayed from devices). With both, the instance wins and
/// kind and family are the fallback when the instance is unknown.
public struct Tap: Sendable, Hashable {
    /// The URL, as the app received it.
    public var url: String
    /// The placed instance tapped, when known.
    public var instanceID: String?
    /// The widget kind, when the instance is not given.
    public var kind: String?
    /// The family's name (`systemMedium`), when the instance is not given.
    public var family: String?
    /// `widgetURL` (the whole widget) or `link` (a `Link` inside it).
    public var source: TapSource
    /// Home Screen, Lock Screen or StandBy.
    public var location: TapLocation
    /// When the tap happened.
    public var date: Date

    /// Creates a tap.
    public init(url: String, instanceID: String? = nil, kind: String? = nil, family: String? = nil,
                source: TapSource, location: TapLocation = .homeScreen, date: Date) {
        self.url = url
        self.instanceID = instanceID
        self.kind = kind
        self.family = family
        self.source = source
        self.location = location
        self.date = date
    }
}

/// Why a stored tap is suspicious: what it claims contradicts the family rules. Such taps are kept and counted.
public enum TapDiagnostic: String, Sendable, Hashable, Codable, CaseIterable {
    /// A `Link` tap on a family that has a single tap target (`WidgetFamilyName.canShowLink` is false).
    case linkOnFamilyWithoutLinks = "link-on-family-without-links"
    /// The family is not a WidgetKit family name, so the tap cannot be checked.
    case unknownFamily = "unknown-family"

    /// A sentence for people.
    public var message: String {
        switch self {
        case .linkOnFamilyWithoutLinks: "a Link tap on a family whose only tap target is its widgetURL"
        case .unknownFamily: "the family is not a WidgetKit family name"
        }
    }

    /// The finding for a tap of `source` on `family`, or nil when it is consistent.
    static func check(source: TapSource, family: String) -> TapDiagnostic? {
        guard let name = WidgetFamilyName(rawValue: family) else { return .unknownFamily }
        if source == .link && !name.canShowLink { return .linkOnFamilyWithoutLinks }
        return nil
    }
}

/// A tap as stored: what routing and the family check found.
public struct RecordedTap: Sendable, Hashable {
    /// The row id.
    public var id: Int64
    /// The matched route, nil for a broken link.
    public var route: String?
    /// The kind stored (from the instance, or as given).
    public var kind: String
    /// The family stored.
    public var family: String
    /// Why the tap is suspicious, if it is.
    public var diagnostic: TapDiagnostic?
}

/// What tap recording refuses. Nothing of the call (or its batch) is stored when one is thrown.
public enum TapError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The tap names no instance and lacks kind or family.
    case widgetUnknown(url: String)
    /// The instance is not placed and the tap gives no kind and family to fall back on.
    case unknownInstance(String)
    /// The tap's date (seconds since 1970) is not finite, or too far from 1970 to be counted by quarter hour.
    case dateOutOfRange(url: String, date: TimeInterval)

    /// A plain sentence naming what is wrong.
    public var description: String {
        switch self {
        case .widgetUnknown(let url): "tap of \(url) names neither an instance nor a kind and family"
        case .unknownInstance(let id): "no widget instance with id '\(id)', and the tap gives no kind and family"
        case .dateOutOfRange(let url, let date): "tap of \(url) at \(date) s since 1970: the date is out of range"
        }
    }
}
