import Foundation

/// Checks what a provider returned before it is stored.
///
/// Apple does not say what happens to an empty timeline, to non-finite dates, or to entries out of date order.
/// WidgetHost's choice:
/// - an empty timeline or a non-finite date is **rejected**: the previous timeline stays, and the reload is
///   reported as failed with the reason (a provider bug should be loud, not shown as a blank widget);
/// - entries out of order are **sorted** (stably, so entries with equal dates keep their order) and the
///   timeline carries the diagnostic ``TimelineDiagnostic/Code/entriesOutOfOrder``: the data is still usable,
///   and a device would show the entries as their dates arrive.
public enum TimelineValidator {
    /// Why a provider's timeline was refused.
    public enum Rejection: Error, Sendable, Equatable, CustomStringConvertible {
        /// The provider returned no entries.
        case empty
        /// An entry's date (or the `.after` date) is NaN or infinite.
        case nonFiniteDate(entryIndex: Int?)

        /// A plain sentence naming the problem.
        public var description: String {
            switch self {
            case .empty:
                "the provider returned a timeline with no entries"
            case .nonFiniteDate(let index?):
                "entry \(index) has a date that is not a finite instant"
            case .nonFiniteDate(nil):
                "the reload policy's .after date is not a finite instant"
            }
        }
    }

    /// The result of validating a timeline.
    public struct Outcome: Sendable, Equatable {
        /// The timeline to store, entries sorted.
        public var timeline: StoredTimeline
        /// True when the entries had to be sorted.
        public var wasReordered: Bool
    }

    /// Validates and normalises provider output.
    /// - Parameters:
    ///   - entries: Entries in the order the provider returned them.
    ///   - policy: The provider's reload policy.
    ///   - generatedAt: The engine's current time.
    /// - Returns: The timeline to store.
    /// - Throws: ``Rejection`` for an empty timeline or a non-finite date.
    public static func validate(
        entries: [EntrySnapshot], policy: ReloadPolicyRecord, generatedAt: Date
    ) throws(Rejection) -> Outcome {
        guard !entries.isEmpty else { throw .empty }
        // By index, reading each date in place: every rebuild validates its timeline, and iterating the entries
        // copied each snapshot (retaining its content) to read one field.
        var inOrder = true
        for index in entries.indices {
            let date = entries[index].date
            guard date.timeIntervalSinceReferenceDate.isFinite else { throw .nonFiniteDate(entryIndex: index) }
            if index > 0, entries[index - 1].date > date { inOrder = false }
        }
        if case .after(let date) = policy, !date.timeIntervalSinceReferenceDate.isFinite {
            throw .nonFiniteDate(entryIndex: nil)
        }
        let sorted = inOrder
            ? entries
            : entries.enumerated()
                .sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }
                .map(\.element)
        return Outcome(
            timeline: StoredTimeline(entries: sorted, policy: policy, generatedAt: generatedAt),
            wasReordered: !inOrder
        )
    }
}
