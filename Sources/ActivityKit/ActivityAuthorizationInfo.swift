/// Whether the user lets the app show Live Activities, and update them often.
///
/// Reads the switches of the host bound to the task when it was created (``HostContext/current``); with no host,
/// both are off and the update streams finish at once. The engine's switches are set through its API
/// (`PUT /v1/activities/authorization`, or `WidgetEngine.activities.setAuthorization`).
///
/// Mirrors [ActivityAuthorizationInfo](https://developer.apple.com/documentation/activitykit/activityauthorizationinfo).
public final class ActivityAuthorizationInfo: Sendable {
    private let host: (any ActivityHost)?

    /// Reads the switches of the host bound to the current task.
    public init() {
        host = HostContext.current as? any ActivityHost
    }

    /// Live Activities are allowed for the app.
    public var areActivitiesEnabled: Bool {
        host?.activityAuthorization.activitiesEnabled ?? false
    }

    /// The app may update its activities more often than the default budget allows.
    public var frequentPushesEnabled: Bool {
        host?.activityAuthorization.frequentPushesEnabled ?? false
    }

    /// The values of ``areActivitiesEnabled`` each time it changes (the first one set after subscribing, then each
    /// change).
    public var activityEnablementUpdates: ActivityEnablementUpdates {
        ActivityStream(host?.activityAuthorizationUpdates(), changesOf: { $0.activitiesEnabled })
    }

    /// The values of ``frequentPushesEnabled`` each time it changes (the first one set after subscribing, then each
    /// change).
    public var frequentPushEnablementUpdates: FrequentPushEnablementUpdates {
        ActivityStream(host?.activityAuthorizationUpdates(), changesOf: { $0.frequentPushesEnabled })
    }

    /// The sequence behind ``activityEnablementUpdates``.
    public typealias ActivityEnablementUpdates = ActivityStream<Bool>
    /// The sequence behind ``frequentPushEnablementUpdates``.
    public typealias FrequentPushEnablementUpdates = ActivityStream<Bool>
}
