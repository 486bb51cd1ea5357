import Foundation

/// The device's rules for Live Activities, which the engine enforces on its clock.
///
/// The durations are Apple's documented ones: an activity is active for at most eight hours, then the system ends
/// it; an ended activity stays on the Lock Screen for at most four more hours, and no activity is shown for more
/// than twelve hours after its start. Where Apple gives no number, WidgetHost chooses one and says so here.
public struct ActivityRules: Sendable, Hashable {
    /// How long an activity may stay active before the system ends it: 8 hours.
    public var maximumActiveDuration: TimeInterval
    /// How long an ended activity may stay on the Lock Screen: 4 hours (the `.default` dismissal policy, and the cap
    /// of `.after(_:)`).
    public var lockScreenDuration: TimeInterval
    /// How long after its start an activity is dismissed at the latest: 12 hours.
    public var maximumLifetime: TimeInterval
    /// How many activities (pending, active or stale) the app may have at once. Apple does not publish the number;
    /// WidgetHost uses 5, and a request beyond it throws `ActivityAuthorizationError.targetMaximumExceeded`.
    public var maximumActivities: Int
    /// The largest attributes plus content state, in bytes of JSON: 4 KB, as ActivityKit documents.
    public var maximumDataSize: Int
    /// How often update and push-to-start tokens rotate on their own, or `nil` for never (they still rotate on
    /// demand). Apple rotates tokens when it likes; a period lets tests catch a server that keeps an old one.
    public var tokenRotationInterval: TimeInterval?
    /// The app's bundle identifier: a push's `apns-topic` must be `<bundle identifier>.push-type.liveactivity`.
    /// `nil` checks only the suffix.
    public var bundleIdentifier: String?

    /// Creates rules; every argument defaults to the documented value.
    public init(maximumActiveDuration: TimeInterval = 8 * 3600, lockScreenDuration: TimeInterval = 4 * 3600,
                maximumLifetime: TimeInterval = 12 * 3600, maximumActivities: Int = 5, maximumDataSize: Int = 4096,
                tokenRotationInterval: TimeInterval? = nil, bundleIdentifier: String? = nil) {
        self.maximumActiveDuration = maximumActiveDuration
        self.lockScreenDuration = lockScreenDuration
        self.maximumLifetime = maximumLifetime
        self.maximumActivities = maximumActivities
        self.maximumDataSize = maximumDataSize
        self.tokenRotationInterval = tokenRotationInterval
        self.bundleIdentifier = bundleIdentifier
    }

    /// Apple's rules, tokens rotating only on demand.
    public static let `default` = ActivityRules()

    /// The largest payload APNs accepts for a Live Activity push, in bytes.
    public static let maximumPushPayloadSize = 4096
}
