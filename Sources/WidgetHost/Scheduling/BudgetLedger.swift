import Foundation

/// The budgeted reloads one instance had in the current window, and what that allows next.
public struct BudgetLedger: Sendable, Hashable, Codable {
    /// When each charged reload ran, oldest first, only those inside the window at `now`.
    public var charges: [Date]
    /// The policy the ledger is read against.
    public var policy: ReloadBudgetPolicy

    /// Builds a ledger from charge times, dropping those that have left the window at `now`.
    public init(charges: [Date], policy: ReloadBudgetPolicy, now: Date) {
        let windowStart = now.addingTimeInterval(-policy.window)
        self.charges = charges.filter { $0 > windowStart && $0 <= now }.sorted()
        self.policy = policy
    }

    /// Budgeted reloads still allowed now.
    public var remaining: Int { max(policy.reloadsPerWindow - charges.count, 0) }

    /// True when a budgeted reload may run now.
    public var allowsReload: Bool { remaining > 0 }

    /// When the next budgeted reload becomes allowed: now if there is budget left, else when the oldest charge
    /// that blocks leaves the window.
    /// - Parameter now: The current time.
    public func nextAllowedReload(now: Date) -> Date {
        if allowsReload { return now }
        // With n charges and a limit of k, the (n - k)th oldest must leave the window: it is at index n - k.
        let blocking = charges[charges.count - policy.reloadsPerWindow]
        return blocking.addingTimeInterval(policy.window)
    }
}
