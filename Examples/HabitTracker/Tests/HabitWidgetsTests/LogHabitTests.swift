import Foundation
import HabitWidgets
import SharedState
import Testing
import WidgetHost
import WidgetHostTesting

@Suite("Logging a habit")
struct LogHabitTests {
    @Test("a tap logs the habit: one row and one key in the diff, the tapped widget shows it at once")
    func logUpdatesTheWidget() async throws {
        let harness = try HabitHarness.make()
        let widget = try await harness.place(HabitWidgets.kind, family: .systemSmall, parameters: ["habit": "water"])
        #expect(try await harness.entry(of: widget.instance.id, as: HabitEntry.self).doneToday == false)

        let outcome = try await harness.perform("LogHabitIntent", ["habitID": "water"], tapping: widget.instance.id)

        #expect(outcome.changes.rows.map(\.table) == ["habit_log"])
        #expect(outcome.changes.rows.first?.new?["day"] == "2024-05-01")
        #expect(outcome.changes.keys.map(\.key) == [HabitStore.lastLoggedKey])
        #expect(try harness.defaultsValue(forKey: HabitStore.lastLoggedKey) == .string("water"))
        #expect(outcome.requestedReloads == [HabitWidgets.kind])
        let entry = try await harness.entry(of: widget.instance.id, as: HabitEntry.self)
        #expect(entry.habitName == "Drink water")
        #expect(entry.doneToday)
    }

    @Test("logging twice a day throws the intent's own error and changes nothing")
    func secondLogThrowsTypedError() async throws {
        let harness = try HabitHarness.make()
        try await harness.perform("LogHabitIntent", ["habitID": "walk"])
        await #expect(throws: HabitError.alreadyLoggedToday) {
            try await harness.perform("LogHabitIntent", ["habitID": "walk"])
        }
        let rows = try harness.read { db in try db.scalar("SELECT COUNT(*) FROM habit_log", as: Int.self) }
        #expect(rows == 1)
    }

    @Test("at the next local midnight the widget reloads on its own and the habit is not done yet")
    func reloadsAtLocalMidnight() async throws {
        let harness = try HabitHarness.make()
        let widget = try await harness.place(HabitWidgets.kind, family: .systemSmall, parameters: ["habit": "water"])
        try await harness.perform("LogHabitIntent", ["habitID": "water"], tapping: widget.instance.id)
        // 22:00 UTC is midnight in Paris (summer time): the provider read the engine's clock, not the machine's.
        let midnight = Date(timeIntervalSince1970: 1_714_600_800)
        #expect(try await harness.state(of: widget.instance.id).nextReload?.dueAt == midnight)

        let reloads = try await harness.advanceClock(by: midnight.timeIntervalSince(harness.now))
        #expect(reloads.contains { $0.instanceIDs == [widget.instance.id] })
        #expect(try await harness.entry(of: widget.instance.id, as: HabitEntry.self).doneToday == false)
    }

    @Test("a mistyped habit id fails the placement instead of showing an empty widget")
    func strictPlacement() async throws {
        let harness = try HabitHarness.make()
        await #expect(throws: WidgetHarnessError.self) {
            try await harness.place(HabitWidgets.kind, family: .systemSmall, parameters: ["habit": "watr"])
        }
        let lenient = try HabitHarness.make(strictParameters: false)
        let widget = try await lenient.place(HabitWidgets.kind, family: .systemSmall, parameters: ["habit": "watr"])
        #expect(widget.diagnostics.map(\.code) == [.deletedEntity])
    }
}
