import Foundation

/// How many budgeted reloads one widget may have in a rolling window.
///
/// Apple: a frequently viewed widget typically gets 40–70 reloads a day, the budget is per widget, and the
/// window is 24 hours that do not reset at midnight. WidgetHost's default is **48 reloads per rolling 24 hours**
/// (one every 30 minutes on average), inside Apple's range and a number a test can exhaust quickly. WidgetHost
/// builds one timeline per configuration for all the instances holding it, and budgets it the same way: the
/// instances of a configuration share one ledger.
public struct ReloadBudgetPolicy: Sendable, Hashable, Codable {
    /// Budgeted reloads allowed in any window.
    public var reloadsPerWindow: Int
    /// The rolling window, in seconds.
    public var window: TimeInterval

    /// Creates a policy.
    /// - Parameters:
    ///   - reloadsPerWindow: At least 1.
    ///   - window: A positive number of seconds.
    public init(reloadsPerWindow: Int = 48, window: TimeInterval = 24 * 60 * 60) {
        precondition(reloadsPerWindow >= 1, "a reload budget needs at least one reload per window")
        precondition(window > 0 && window.isFinite, "a reload budget window must be a positive number of seconds")
        self.reloadsPerWindow = reloadsPerWindow
        self.window = window
    }

    /// The default: 48 reloads per rolling 24 hours.
    public static let `default` = ReloadBudgetPolicy()

    /// The shortest average interval between reloads the budget sustains.
    public var sustainableInterval: TimeInterval { window / Double(reloadsPerWindow) }
}

/// Why a timeline is being rebuilt; decides whether the reload is charged to the budget of the instance's
/// configuration.
public enum ReloadReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// The widget was placed or its configuration changed: the first timeline for it. Not charged, as a device
    /// builds a newly added widget at once.
    case configurationChanged = "configuration-changed"
    /// The timeline's reload policy came due.
    case scheduled
    /// `WidgetCenter.reloadTimelines(ofKind:)`.
    case kindReload = "kind-reload"
    /// `WidgetCenter.reloadAllTimelines()`.
    case allReload = "all-reload"
    /// An interactive intent ran from this widget (button or toggle): exempt, per Apple.
    case interactiveIntent = "interactive-intent"
    /// The containing app is in the foreground: exempt, per Apple.
    case appForeground = "app-foreground"
    /// A widget push (`apns-push-type: widgets`, `content-changed`) reached the device: charged, as Apple counts
    /// push-driven reloads against the widget's budget.
    case widgetPush = "widget-push"

    /// True when Apple documents this kind of reload as not counting against the budget.
    public var isBudgetExempt: Bool {
        switch self {
        case .configurationChanged, .interactiveIntent, .appForeground: true
        case .scheduled, .kindReload, .allReload, .widgetPush: false
        }
    }
}
