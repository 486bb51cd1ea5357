/// Where a Live Activity is in its life.
///
/// Mirrors [ActivityState](https://developer.apple.com/documentation/activitykit/activitystate).
public enum ActivityState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Requested with a start date that has not come yet: not shown.
    case pending
    /// Shown, and taking updates.
    case active
    /// Shown, but its content's stale date has passed; an update with a later stale date makes it active again.
    case stale
    /// Ended (by the app, a push, or the system): still on the Lock Screen until it is dismissed, taking no updates.
    case ended
    /// Removed from the Lock Screen: the end of its life.
    case dismissed
}
