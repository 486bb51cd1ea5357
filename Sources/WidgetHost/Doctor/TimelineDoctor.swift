import Foundation

/// Examines a stored timeline and reports what will make the widget look stale or misbehave.
///
/// The doctor is pure: it reads a timeline, a budget and the current time. The engine adds the findings that
/// come from elsewhere (deleted entities from parameter resolution, rejected timelines, deferred reloads).
public enum TimelineDoctor {
    /// The minimum spacing Apple asks for between entries.
    public static let minimumEntrySpacing: TimeInterval = 5 * 60

    /// Diagnoses one timeline.
    /// - Parameters:
    ///   - timeline: The stored, validated timeline.
    ///   - wasReordered: True when the validator had to sort the entries.
    ///   - budget: The instance's budget policy.
    ///   - now: The engine's current time.
    /// - Returns: Findings, in a stable order.
    public static func diagnose(
        _ timeline: StoredTimeline, wasReordered: Bool, budget: ReloadBudgetPolicy, now: Date
    ) -> [TimelineDiagnostic] {
        var findings: [TimelineDiagnostic] = []
        let format = Date.ISO8601FormatStyle()
        guard let last = timeline.entries.last else { return findings }

        if timeline.policy == .never, last.date <= now {
            findings.append(TimelineDiagnostic(
                code: .freezesAfter, severity: .warning,
                message: "The timeline's policy is .never and its last entry (\(last.date.formatted(format))) has "
                    + "passed: the widget stays frozen on it until the app reloads it.",
                date: last.date))
        } else if timeline.policy == .never {
            findings.append(TimelineDiagnostic(
                code: .freezesAfter, severity: .info,
                message: "The timeline's policy is .never: after \(last.date.formatted(format)) the widget stays "
                    + "on its last entry until the app reloads it.",
                date: last.date))
        }

        if let interval = requestedInterval(timeline), interval < budget.sustainableInterval {
            let perDay = interval > 0 ? Int((budget.window / interval).rounded(.down)) : Int.max
            let asked = perDay == Int.max ? "immediately and continuously" : "about \(perDay) times per window"
            findings.append(TimelineDiagnostic(
                code: .reloadsExceedBudget, severity: .warning,
                message: "The policy asks to reload \(asked), more than the budget of \(budget.reloadsPerWindow) "
                    + "per \(Int(budget.window / 3600)) hours sustains; reloads will be deferred.",
                date: timeline.requestedReload))
        }

        if timeline.entries.count == 1, timeline.policy == .atEnd {
            findings.append(TimelineDiagnostic(
                code: .singleEntryAtEnd, severity: .warning,
                message: "One entry with .atEnd: the reload is due as soon as the entry's date passes, so when the "
                    + "widget refreshes is left entirely to the reload budget.",
                date: last.date))
        }

        for (earlier, later) in zip(timeline.entries, timeline.entries.dropFirst())
        where later.date.timeIntervalSince(earlier.date) < minimumEntrySpacing {
            findings.append(TimelineDiagnostic(
                code: .entriesTooClose, severity: .info,
                message: "Entries at \(earlier.date.formatted(format)) and \(later.date.formatted(format)) are less "
                    + "than 5 minutes apart; the later one may never be shown on time.",
                date: later.date))
            break
        }

        if wasReordered {
            findings.append(TimelineDiagnostic(
                code: .entriesOutOfOrder, severity: .warning,
                message: "The provider returned entries out of date order; they were sorted by date."))
        }
        return findings
    }

    /// The cadence the timeline asks for: from its first entry (or its generation, whichever is earlier) to the
    /// reload it requests; nil for `.never`.
    ///
    /// Measuring from the first entry keeps a daily timeline built at 23:58 (entry at 00:00 today, reload at the
    /// next midnight) from looking like a two-minute cadence.
    private static func requestedInterval(_ timeline: StoredTimeline) -> TimeInterval? {
        guard let reload = timeline.requestedReload, let first = timeline.entries.first else { return nil }
        let start = min(first.date, timeline.generatedAt)
        return max(reload.timeIntervalSince(start), 0)
    }
}
