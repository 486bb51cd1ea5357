import AppIntents
import Foundation
import WidgetKit

/// Why logging a habit failed.
public enum HabitError: Error, Equatable, CustomStringConvertible {
    /// The habit was already logged today.
    case alreadyLoggedToday
    /// No habit has this id.
    case unknownHabit(String)

    public var description: String {
        switch self {
        case .alreadyLoggedToday: "already logged today"
        case .unknownHabit(let id): "no habit '\(id)'"
        }
    }
}

/// The widget's button: logs the habit for today, remembers it as the last one logged, reloads the habit widgets.
public struct LogHabitIntent: AppIntent {
    public static let title: LocalizedStringResource = "Log habit"

    @Parameter(title: "Habit ID")
    public var habitID: String

    public init() {}

    public func perform() async throws -> some IntentResult {
        guard try HabitQuery.allHabits().contains(where: { $0.id == habitID }) else {
            throw HabitError.unknownHabit(habitID)
        }
        let day = HabitStore.day(of: DeviceClock.now, in: DeviceClock.calendar)
        guard try HabitStore.log(habitID: habitID, day: day) else { throw HabitError.alreadyLoggedToday }
        UserDefaults(suiteName: HabitStore.appGroup)?.set(habitID, forKey: HabitStore.lastLoggedKey)
        WidgetCenter.shared.reloadTimelines(ofKind: HabitWidgets.kind)
        return .result()
    }
}
