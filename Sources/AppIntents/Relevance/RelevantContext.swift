import Foundation

/// A contextual clue saying when a widget is relevant: a date, a date window, or a situation.
///
/// WidgetHost scores the date clues (``date(_:)``, ``date(from:to:)``, ``date(interval:)``) in Smart Stack
/// ranking. The situational clues (location, fitness, sleep, headphones) exist so that iOS code compiles
/// unchanged; a server has no sensors, so they never contribute to a score.
///
/// Mirrors RelevanceKit's [RelevantContext](https://developer.apple.com/documentation/relevancekit/relevantcontext),
/// which App Intents re-exports for ``RelevantIntent``.
public struct RelevantContext: Sendable, Hashable, Codable {
    /// What the clue says.
    public enum Clue: Sendable, Hashable, Codable {
        /// Most relevant at one instant.
        case date(Date)
        /// Relevant from `start` (inclusive) to `end` (exclusive).
        case dateInterval(start: Date, end: Date)
        /// Relevant at a kind of place the system infers (home, work, ...).
        case inferredLocation(LocationCategory)
        /// Relevant during a fitness situation.
        case fitness(FitnessCategory)
        /// Relevant around sleep.
        case sleep(SleepCategory)
        /// Relevant when headphones are connected.
        case headphones(HeadphonesState)
    }

    /// Places the system can infer.
    public enum LocationCategory: String, Sendable, Hashable, Codable {
        case home, work, school, commute
    }

    /// Fitness situations.
    public enum FitnessCategory: String, Sendable, Hashable, Codable {
        case activityRingsIncomplete, workoutActive
    }

    /// Sleep situations.
    public enum SleepCategory: String, Sendable, Hashable, Codable {
        case bedtime, wakeup
    }

    /// Headphone states.
    public enum HeadphonesState: String, Sendable, Hashable, Codable {
        case connected
    }

    /// The clue.
    public let clue: Clue

    private init(_ clue: Clue) {
        self.clue = clue
    }

    /// The widget is most relevant at `exact`.
    public static func date(_ exact: Date) -> RelevantContext {
        RelevantContext(.date(exact))
    }

    /// The widget is relevant between two dates; `from` later than `to` is read as the reversed window.
    public static func date(from: Date, to: Date) -> RelevantContext {
        RelevantContext(.dateInterval(start: min(from, to), end: max(from, to)))
    }

    /// The widget is relevant during `interval`.
    public static func date(interval: DateInterval) -> RelevantContext {
        RelevantContext(.dateInterval(start: interval.start, end: interval.end))
    }

    /// The widget is relevant at a kind of place the system infers.
    public static func location(inferred category: LocationCategory) -> RelevantContext {
        RelevantContext(.inferredLocation(category))
    }

    /// The widget is relevant in a fitness situation.
    public static func fitness(_ category: FitnessCategory) -> RelevantContext {
        RelevantContext(.fitness(category))
    }

    /// The widget is relevant around sleep.
    public static func sleep(_ category: SleepCategory) -> RelevantContext {
        RelevantContext(.sleep(category))
    }

    /// The widget is relevant when headphones are in the given state.
    public static func hardware(headphones state: HeadphonesState) -> RelevantContext {
        RelevantContext(.headphones(state))
    }
}
