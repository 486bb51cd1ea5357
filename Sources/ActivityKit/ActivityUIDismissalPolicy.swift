import Foundation

/// When an ended Live Activity leaves the Lock Screen.
///
/// Mirrors [ActivityUIDismissalPolicy](https://developer.apple.com/documentation/activitykit/activityuidismissalpolicy).
public struct ActivityUIDismissalPolicy: Sendable, Hashable {
    /// What the policy says, in one value.
    public enum Kind: Sendable, Hashable {
        /// Stays for up to four hours after the end (and never beyond twelve hours after the start).
        case `default`
        /// Removed at once.
        case immediate
        /// Removed at the date, but never later than four hours after the end.
        case after(Date)
    }

    /// What the policy says.
    public let kind: Kind

    private init(_ kind: Kind) {
        self.kind = kind
    }

    /// The system's policy: the ended activity stays on the Lock Screen for up to four hours.
    public static let `default` = ActivityUIDismissalPolicy(.default)

    /// The ended activity is removed at once.
    public static let immediate = ActivityUIDismissalPolicy(.immediate)

    /// The ended activity is removed at `date`, or four hours after the end if that comes first.
    /// - Parameter date: When to remove it; a date already past removes it at once.
    public static func after(_ date: Date) -> ActivityUIDismissalPolicy {
        ActivityUIDismissalPolicy(.after(date))
    }
}
