import Foundation

/// One finding about a widget instance's timeline or configuration: a stable code plus a plain sentence.
public struct TimelineDiagnostic: Sendable, Hashable, Codable {
    /// Stable identifiers for findings. The raw values are part of the API and never change meaning.
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        /// `.never` and the last entry's date has passed: the widget shows the same entry until the app reloads it.
        case freezesAfter = "freezes-after"
        /// The policy asks for reloads more often than the budget sustains.
        case reloadsExceedBudget = "reloads-exceed-budget"
        /// One entry and `.atEnd`: the reload is due at once and its timing is left entirely to the budget.
        case singleEntryAtEnd = "single-entry-at-end"
        /// Two consecutive entries are less than five minutes apart (Apple asks for at least about five).
        case entriesTooClose = "entries-too-close"
        /// The configuration names an entity that no longer exists; a default or nil was used instead.
        case deletedEntity = "deleted-entity"
        /// The provider returned entries out of date order; WidgetHost sorted them.
        case entriesOutOfOrder = "entries-out-of-order"
        /// The provider's last timeline was refused (empty, or a non-finite date); the previous one is still shown.
        case timelineRejected = "timeline-rejected"
        /// A budgeted reload was deferred because the instance's budget is spent.
        case budgetExhausted = "budget-exhausted"
    }

    /// How much the finding matters.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// Worth knowing; the widget behaves as designed.
        case info
        /// The widget will look stale or wrong to a user.
        case warning
        /// The provider's output was refused.
        case error
    }

    /// The stable code.
    public var code: Code
    /// How much it matters.
    public var severity: Severity
    /// A plain sentence for a person.
    public var message: String
    /// The instant the finding is about, when there is one (the freeze date, the deferred reload).
    public var date: Date?

    /// Creates a diagnostic.
    public init(code: Code, severity: Severity, message: String, date: Date? = nil) {
        self.code = code
        self.severity = severity
        self.message = message
        self.date = date
    }
}
