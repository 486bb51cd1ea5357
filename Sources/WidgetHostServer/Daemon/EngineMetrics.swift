import HTTPServer
import WidgetHost

/// The engine's counters at `/metrics`. This is the one place engine metric names are registered.
///
/// | name | type | labels | counts |
/// |---|---|---|---|
/// | `widgethost_reloads_total` | counter | `reason` (`configuration-changed`, `scheduled`, `kind-reload`, `all-reload`, `interactive-intent`, `app-foreground`) | provider runs, accepted or refused |
/// | `widgethost_budget_deferrals_total` | counter | `reason` | instances whose budgeted reload was pushed back because their budget is spent |
/// | `widgethost_intents_performed_total` | counter | none | interactive intents performed (incremented by the perform endpoint through ``intentPerformed()``) |
/// | `widgethost_activity_pushes_total` | counter | `outcome` (`applied`, `ignored`), `reason` (an ignore reason, `none` when applied) | Live Activity push results delivered through `POST /v1/device/push`, one per activity reached |
///
/// Every series is created at start-up, so a scrape shows zeros rather than nothing.
public final class EngineMetrics: Sendable {
    /// Provider runs, by reload reason.
    public static let reloadsName = "widgethost_reloads_total"
    /// Budget deferrals, by reload reason.
    public static let budgetDeferralsName = "widgethost_budget_deferrals_total"
    /// Interactive intents performed.
    public static let intentsPerformedName = "widgethost_intents_performed_total"
    /// Live Activity push results, by outcome and ignore reason.
    public static let activityPushesName = "widgethost_activity_pushes_total"

    private let reloads: [ReloadReason: Counter]
    private let deferrals: [ReloadReason: Counter]
    private let intents: Counter
    /// By ignore reason; `nil` for applied.
    private let pushes: [ActivityIgnoreReason?: Counter]

    /// Registers the engine metrics in `registry`.
    public init(registry: MetricsRegistry) {
        var reloads: [ReloadReason: Counter] = [:]
        var deferrals: [ReloadReason: Counter] = [:]
        for reason in ReloadReason.allCases {
            reloads[reason] = registry.counter(Self.reloadsName, help: "Timeline provider runs, by reload reason.",
                                               labels: ["reason": reason.rawValue])
            if !reason.isBudgetExempt {
                deferrals[reason] = registry.counter(
                    Self.budgetDeferralsName,
                    help: "Instances whose budgeted reload was deferred because their budget was spent, by reason.",
                    labels: ["reason": reason.rawValue])
            }
        }
        self.reloads = reloads
        self.deferrals = deferrals
        intents = registry.counter(Self.intentsPerformedName, help: "Interactive intents performed.")
        let help = "Live Activity push results (one per activity a push reached), by outcome and ignore reason."
        var pushes: [ActivityIgnoreReason?: Counter] = [
            nil: registry.counter(Self.activityPushesName, help: help, labels: ["outcome": "applied", "reason": "none"]),
        ]
        for reason in ActivityIgnoreReason.allCases {
            pushes[reason] = registry.counter(Self.activityPushesName, help: help,
                                              labels: ["outcome": "ignored", "reason": reason.rawValue])
        }
        self.pushes = pushes
    }

    /// Counts `engine`'s provider runs and budget deferrals from now on.
    public func observe(_ engine: WidgetEngine) {
        engine.events.observe { [self] event in
            switch event {
            case .providerRan(let record):
                reloads[record.reason]?.increment()
            case .reloadDeferred(let instanceIDs, let reason, _):
                deferrals[reason]?.increment(by: Double(instanceIDs.count))
            }
        }
    }

    /// Counts one interactive intent performed.
    public func intentPerformed() {
        intents.increment()
    }

    /// Counts a delivered push's results.
    public func recordPush(_ delivery: PushDelivery) {
        for result in delivery.results {
            switch result.outcome {
            case .applied: pushes[nil]?.increment()
            case .ignored(let ignored): pushes[ignored.reason]?.increment()
            }
        }
    }

    /// The number of push results counted as ignored for `reason`, or applied for `nil`.
    public func pushes(ignoredFor reason: ActivityIgnoreReason?) -> Double {
        pushes[reason]?.value ?? 0
    }

    /// The number of provider runs counted for `reason`.
    public func reloads(reason: ReloadReason) -> Double {
        reloads[reason]?.value ?? 0
    }

    /// The number of budget deferrals counted for `reason`.
    public func deferrals(reason: ReloadReason) -> Double {
        deferrals[reason]?.value ?? 0
    }
}
