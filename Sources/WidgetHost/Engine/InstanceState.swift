import Foundation
import JSON

/// Everything a host asks about one placed widget: its configuration, its timeline, the entry it shows now,
/// when it reloads next, its budget, and what the doctor found.
public struct InstanceState: Sendable, Hashable, Codable {
    /// The instance.
    public var instance: WidgetInstance
    /// Its resolved parameters.
    public var resolvedParameters: [String: JSONValue]
    /// The stored timeline, nil when no provider run has succeeded yet.
    public var timeline: StoredTimeline?
    /// The entry shown at ``evaluatedAt``.
    public var currentEntry: EntrySnapshot?
    /// When this state was read, on the engine's clock.
    public var evaluatedAt: Date
    /// The next reload (its configuration's), nil for `.never` with nothing requested.
    public var nextReload: ScheduledReload?
    /// The instance's budget now: its configuration's, shared by every instance holding it.
    public var budget: BudgetStatus
    /// How many times the provider has run for its configuration.
    public var providerRuns: Int
    /// Findings, most important first.
    public var diagnostics: [TimelineDiagnostic]
}

/// An instance's reload budget at one moment.
public struct BudgetStatus: Sendable, Hashable, Codable {
    /// Budgeted reloads allowed per window.
    public var limit: Int
    /// Budgeted reloads in the current window.
    public var used: Int
    /// Budgeted reloads still allowed now.
    public var remaining: Int
    /// The rolling window, in seconds.
    public var window: TimeInterval
    /// When the next budgeted reload is allowed (now, when budget remains).
    public var nextAllowedReload: Date
}
