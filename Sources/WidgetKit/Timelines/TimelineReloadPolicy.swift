import Foundation

/// When WidgetKit asks a provider for a new timeline.
///
/// A struct, as Apple's is, so user code compares it with `==` and builds it with `.atEnd`,
/// `.never` and `.after(_:)`. Hosts read ``kind`` (or ``reloadDate``) to schedule.
///
/// Mirrors [TimelineReloadPolicy](https://developer.apple.com/documentation/widgetkit/timelinereloadpolicy).
public struct TimelineReloadPolicy: Equatable, Hashable, Sendable, Codable {
    /// The three policies, for hosts that schedule reloads.
    public enum Kind: Equatable, Hashable, Sendable, Codable {
        /// Reload after the last entry's date.
        case atEnd
        /// Reload only when the app asks `WidgetCenter`.
        case never
        /// Reload at (or after) this date, which may be before or after the last entry.
        case after(Date)
    }

    /// Which policy this is.
    public let kind: Kind

    /// Creates a policy of the given kind.
    public init(kind: Kind) {
        self.kind = kind
    }

    /// Reload after the last entry's date. The default.
    public static let atEnd = TimelineReloadPolicy(kind: .atEnd)

    /// Reload only when the app asks `WidgetCenter`.
    public static let never = TimelineReloadPolicy(kind: .never)

    /// Reload at (or after) `date`.
    public static func after(_ date: Date) -> TimelineReloadPolicy {
        TimelineReloadPolicy(kind: .after(date))
    }

    /// The date of an `.after` policy; `nil` for `.atEnd` and `.never`.
    public var reloadDate: Date? {
        if case .after(let date) = kind { return date }
        return nil
    }
}

extension TimelineReloadPolicy: CustomStringConvertible {
    /// `atEnd`, `never`, or `after(2024-05-01T00:00:00Z)`.
    public var description: String {
        switch kind {
        case .atEnd: return "atEnd"
        case .never: return "never"
        case .after(let date): return "after(\(date.formatted(.iso8601)))"
        }
    }
}
