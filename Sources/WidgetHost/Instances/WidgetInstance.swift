import Foundation
import JSON

/// One placed widget: a kind in a family with its own raw configuration, as a user added it to a home screen.
public struct WidgetInstance: Sendable, Hashable, Codable {
    /// The instance's id, unique in the engine.
    public var id: String
    /// The widget kind string.
    public var kind: String
    /// The family's raw name (`systemSmall`, ...).
    public var family: String
    /// The parameters as the host gave them (JSON object members).
    public var rawParameters: [String: JSONValue]
    /// The configuration it resolved to; instances with equal keys share one provider run and one timeline.
    public var configurationKey: String
    /// When it was placed.
    public var placedAt: Date
    /// When its parameters last changed.
    public var updatedAt: Date
    /// What resolving its raw parameters found (e.g. an entity deleted before it was placed).
    public var resolutionDiagnostics: [TimelineDiagnostic]

    /// Creates an instance record.
    public init(id: String, kind: String, family: String, rawParameters: [String: JSONValue],
                configurationKey: String, placedAt: Date, updatedAt: Date,
                resolutionDiagnostics: [TimelineDiagnostic] = []) {
        self.id = id
        self.kind = kind
        self.family = family
        self.rawParameters = rawParameters
        self.configurationKey = configurationKey
        self.placedAt = placedAt
        self.updatedAt = updatedAt
        self.resolutionDiagnostics = resolutionDiagnostics
    }
}

/// When an instance's timeline will next be rebuilt, and why.
public struct ScheduledReload: Sendable, Hashable, Codable {
    /// The instant the reload is due.
    public var dueAt: Date
    /// Why it will run.
    public var reason: ReloadReason
    /// True when it was pushed back because the budget is spent.
    public var deferredByBudget: Bool

    /// Creates a scheduled reload.
    public init(dueAt: Date, reason: ReloadReason, deferredByBudget: Bool) {
        self.dueAt = dueAt
        self.reason = reason
        self.deferredByBudget = deferredByBudget
    }
}
