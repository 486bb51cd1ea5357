import Foundation
import HabitWidgets
import SharedState
import WidgetHostTesting

/// A harness over the habit widgets: the app's migrations, and the habit list the app keeps in its App Group
/// directory.
enum HabitHarness {
    static let habits = [HabitEntity(id: "water", name: "Drink water"), HabitEntity(id: "walk", name: "Walk")]

    /// Starts on 2024-05-01 09:00 in Paris (07:00 UTC), so the next local midnight is 22:00 UTC.
    static func make(strictParameters: Bool = true) throws -> WidgetHarness {
        try WidgetHarness(catalog: HabitWidgets.catalog(), intents: HabitWidgets.intents(),
                          appGroup: HabitStore.appGroup, start: Date(timeIntervalSince1970: 1_714_546_800),
                          timeZone: TimeZone(identifier: "Europe/Paris")!, strictParameters: strictParameters) {
            container in
            try HabitStore.migrator.migrate(container.store)
            try writeHabits(into: container)
        }
    }

    /// Writes `habits.json` where the app would: the container's directory.
    static func writeHabits(into container: AppGroupContainer) throws {
        guard let directory = try container.makeDirectory() else { return }
        try JSONEncoder().encode(habits).write(to: directory.appendingPathComponent("habits.json"))
    }
}
