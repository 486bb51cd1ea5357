import Foundation
import JSON

/// How the planner paces one attributes type's pushes. Every field has a documented default, so `{}` is a policy.
///
/// | field | default | what it does |
/// |---|---|---|
/// | `minimumInterval` | 60 s | the least time between two pushes to one activity; changes in between coalesce |
/// | `expectedInterval` | 300 s | how often the host expects to push; a held (insignificant) latest state goes out this long after the last push |
/// | `staleInterval` | 2 × `expectedInterval` | every update's `stale-date` is its timestamp plus this |
/// | `significance` | `[]` (every change counts) | ``SignificanceRule``s; when given, only changes they name are pushed at once |
/// | `alert` | `[]` | ``MemberRule``s; a change into their values is alert-worthy: priority 10 with an alert |
/// | `completion` | `[]` | ``MemberRule``s; when one holds, the planner ends the activity |
/// | `highPriorityPerHour` | 10 | priority-10 pushes per activity in any sliding hour |
/// | `frequentHighPriorityPerHour` | 60 | the same when the device reports frequent pushes enabled |
/// | `endAfter` | 7 h 30 min | the planner ends the activity this long after its first submitted change, before the system's 8-hour limit |
/// | `dismissalDelay` | 15 min | an end's `dismissal-date` is its timestamp plus this |
///
/// Apple publishes no number for the priority-10 budget; the defaults are conservative and meant to be configured.
public struct PlannerPolicy: Sendable, Hashable, Codable {
    /// The least time between two pushes to one activity.
    public var minimumInterval: TimeInterval = 60
    /// How often the host expects to push; a held latest state goes out this long after the last push.
    public var expectedInterval: TimeInterval = 300
    /// Every update's `stale-date` is its timestamp plus this; `nil` means twice ``expectedInterval``.
    public var staleInterval: TimeInterval?
    /// When given, only the changes these rules call significant are pushed at once.
    public var significance: [SignificanceRule] = []
    /// A change into these rules' values is alert-worthy (priority 10 with an alert).
    public var alert: [MemberRule] = []
    /// When one of these holds, the planner ends the activity.
    public var completion: [MemberRule] = []
    /// Priority-10 pushes per activity in any sliding hour.
    public var highPriorityPerHour: Int = 10
    /// Priority-10 pushes per activity per hour when the device reports frequent pushes enabled.
    public var frequentHighPriorityPerHour: Int = 60
    /// The planner ends an activity this long after its first submitted change (the system ends it at 8 hours).
    public var endAfter: TimeInterval = 7.5 * 3600
    /// An end's `dismissal-date` is its timestamp plus this.
    public var dismissalDelay: TimeInterval = 15 * 60
    /// The alert shown with an alert-worthy change: its title and body.
    public var alertTitle: String = "Update"
    /// The alert's body.
    public var alertBody: String = "Your activity changed."

    /// The defaults.
    public init() {}

    /// The stale interval in force: ``staleInterval``, or twice ``expectedInterval``.
    public var effectiveStaleInterval: TimeInterval { staleInterval ?? 2 * expectedInterval }

    /// The hourly priority-10 budget for a device with frequent pushes on or off.
    public func highPriorityBudget(frequentPushes: Bool) -> Int {
        frequentPushes ? frequentHighPriorityPerHour : highPriorityPerHour
    }

    /// Reads a policy; absent members take their defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = PlannerPolicy()
        func value<T: Decodable>(_ key: CodingKeys, _ fallback: T) throws -> T {
            try container.decodeIfPresent(T.self, forKey: key) ?? fallback
        }
        minimumInterval = try value(.minimumInterval, defaults.minimumInterval)
        expectedInterval = try value(.expectedInterval, defaults.expectedInterval)
        staleInterval = try container.decodeIfPresent(TimeInterval.self, forKey: .staleInterval)
        significance = try value(.significance, defaults.significance)
        alert = try value(.alert, defaults.alert)
        completion = try value(.completion, defaults.completion)
        highPriorityPerHour = try value(.highPriorityPerHour, defaults.highPriorityPerHour)
        frequentHighPriorityPerHour = try value(.frequentHighPriorityPerHour, defaults.frequentHighPriorityPerHour)
        endAfter = try value(.endAfter, defaults.endAfter)
        dismissalDelay = try value(.dismissalDelay, defaults.dismissalDelay)
        alertTitle = try value(.alertTitle, defaults.alertTitle)
        alertBody = try value(.alertBody, defaults.alertBody)
    }

    /// What is wrong with the policy, or nil: a bad JSON pointer, a negative or non-finite duration or threshold,
    /// a negative budget, an `endAfter` at or past the system's 8 hours, a stale interval not longer than the
    /// expected one (the held state would arrive after the content went stale), an alert title over 256 or body over
    /// 1024 characters, or empty.
    public var problem: PlannerPolicyProblem? {
        let durations: [(String, Double)] = [
            ("minimumInterval", minimumInterval), ("expectedInterval", expectedInterval),
            ("staleInterval", effectiveStaleInterval), ("endAfter", endAfter), ("dismissalDelay", dismissalDelay),
        ]
        if let (field, _) = durations.first(where: { !$0.1.isFinite || $0.1 < 0 || $0.1 > 86_400 }) {
            return PlannerPolicyProblem(field: field, reason: "expected 0 to 86400 seconds")
        }
        if minimumInterval > expectedInterval {
            return PlannerPolicyProblem(field: "minimumInterval", reason: "must not exceed expectedInterval")
        }
        if effectiveStaleInterval <= expectedInterval {
            return PlannerPolicyProblem(field: "staleInterval", reason: """
                must be longer than expectedInterval, or a held state arrives after the content went stale
                """)
        }
        if endAfter >= 8 * 3600 || endAfter < 60 {
            return PlannerPolicyProblem(field: "endAfter", reason: "expected 60 s to under 8 hours, the system's limit")
        }
        if highPriorityPerHour < 0 || frequentHighPriorityPerHour < highPriorityPerHour || frequentHighPriorityPerHour > 10_000 {
            return PlannerPolicyProblem(field: "frequentHighPriorityPerHour", reason: """
                budgets must be 0 to 10000, the frequent one at least highPriorityPerHour
                """)
        }
        for (field, pointers) in [("significance", significance.map(\.pointer)), ("alert", alert.map(\.pointer)),
                                  ("completion", completion.map(\.pointer))] {
            if let bad = pointers.first(where: { JSONPointer.tokens($0) == nil }) {
                return PlannerPolicyProblem(field: field, reason: "'\(bad)' is not a JSON pointer (RFC 6901)")
            }
        }
        if let rule = significance.first(where: { $0.threshold.map { !$0.isFinite || $0 < 0 } ?? false }) {
            return PlannerPolicyProblem(field: "significance", reason: "the threshold of \(rule.pointer) must be 0 or more")
        }
        for (field, text, limit) in [("alertTitle", alertTitle, 256), ("alertBody", alertBody, 1024)]
        where !(1...limit).contains(text.unicodeScalars.count) {
            return PlannerPolicyProblem(field: field, reason: "expected 1 to \(limit) characters")
        }
        return nil
    }
}

/// Why a policy was refused: the field and what it must be. Nothing was changed.
public struct PlannerPolicyProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The policy field at fault.
    public var field: String
    /// What it must be.
    public var reason: String

    public var description: String { "\(field): \(reason)" }
}
