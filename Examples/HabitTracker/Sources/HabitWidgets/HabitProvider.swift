import AppIntents
import Foundation
import WidgetKit

/// What the habit widget shows: the habit, and whether it was logged today.
public struct HabitEntry: TimelineEntry, Codable, Sendable {
    public var date: Date
    public var habitID: String?
    public var habitName: String
    public var doneToday: Bool
}

/// One entry for today; the next timeline at the next local midnight, when "done today" turns false again.
public struct HabitProvider: AppIntentTimelineProvider, Sendable {
    public init() {}

    public func placeholder(in context: Context) -> HabitEntry {
        HabitEntry(date: DeviceClock.now, habitID: nil, habitName: "Habit", doneToday: false)
    }

    public func snapshot(for configuration: SelectHabitIntent, in context: Context) async -> HabitEntry {
        entry(for: configuration.habit, at: DeviceClock.now)
    }

    public func timeline(for configuration: SelectHabitIntent, in context: Context) async -> Timeline<HabitEntry> {
        let now = DeviceClock.now
        let midnight = DeviceClock.calendar.nextDate(after: now, matching: DateComponents(hour: 0, minute: 0),
                                                     matchingPolicy: .nextTime) ?? now.addingTimeInterval(86_400)
        return Timeline(entries: [entry(for: configuration.habit, at: now)], policy: .after(midnight))
    }

    private func entry(for habit: HabitEntity?, at now: Date) -> HabitEntry {
        guard let habit else { return HabitEntry(date: now, habitID: nil, habitName: "No habit", doneToday: false) }
        let day = HabitStore.day(of: now, in: DeviceClock.calendar)
        let done = (try? HabitStore.isLogged(habitID: habit.id, day: day)) ?? false
        return HabitEntry(date: now, habitID: habit.id, habitName: habit.name, doneToday: done)
    }
}
