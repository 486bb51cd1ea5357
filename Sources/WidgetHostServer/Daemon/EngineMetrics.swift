import HTTPServer
import WidgetHost

/// The engine's counters at `/metrics`. This is the one place engine metric names are registered.
///
/// | name | type | labels | counts |
/// |---|---|---|---|
/// | `widgethost_reloads_total` | counter | `reason` (`configuration-changed`, `scheduled`, `kind-reload`, `all-reload`, `interactive-intent`, `app-foreground`) | provider runs, accepted or refused |
/// | `widgethost_budget_deferrals_total` | counter | `reason` | instances whose budgeted reload was pushed back because their budget is spent |
/// | `widgethost_intents_performed_total` | counter | none | interactive intents performed (incremented by the perform endpoint through ``intentPerformed()``) |
///
/// Every series is created at start-up, so a scrape shows zeros rather than nothing.
public final class EngineMetrics: Sendable {
    /// Provider runs, by reload reason.
    public static let reloadsName = "widgethost_reloads_total"
    /// Budget deferrals, by reload reason.
    public static let budgetDeferralsName = "widgethost_budget_deferrals_total"
    /// Interactive intents performed.
    public static let intentsPerformedName = "widgethost_intents_performed_total"

    private let reloads: [ReloadReason: Counter]
    private let deferrals: [ReloadReason: Counter]
    private let intents: Counter

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

    /// The number of provider runs counted for `reason`.
    public func reloads(reason: ReloadReason) -> Double {
        reloads[reason]?.value ?? 0
    }

    /// The number of budget deferrals counted for `reason`.
    public func deferrals(reason: ReloadReason) -> Double {
        deferrals[reason]?.value ?? 0
    }
}
