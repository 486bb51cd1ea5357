// The complete example of Docs/testing-intents.md, as a real test: keep the two identical.
import DemoWidgets
import Testing
import WidgetHost
import WidgetHostTesting

@Suite("Intent harness example")
struct IntentHarnessExampleTests {
    @Test
    func completingATaskUpdatesTheTaskList() async throws {
        // A host with the demo widgets and intents, over a temporary container filled with the fixtures.
        let harness = try WidgetHarness(catalog: DemoCatalog.make(), intents: DemoCatalog.makeIntents(),
                                        appGroup: DemoSchema.appGroup) { container in
            try FixtureLoader.load(Fixtures(directory: Fixtures.bundledDirectory), into: container)
        }
        let list = try await harness.place(DemoCatalog.Kind.taskList, family: .systemLarge,
                                           parameters: ["project": "proj-launch"])
        let before = try await harness.entry(of: list.instance.id, as: TaskListEntry.self)
        #expect(before.tasks.map(\.id).contains("task-3"))

        // Tap "complete" on task-3 in that widget.
        let outcome = try await harness.perform("CompleteTaskIntent", ["taskId": "task-3"], tapping: list.instance.id)

        // What changed: one row, before -> after, and one App Group key.
        #expect(outcome.changes.rows.count == 1)
        #expect(outcome.changes.rows[0].table == "tasks")
        #expect(outcome.changes.rows[0].old?["completed"] == 0)
        #expect(outcome.changes.rows[0].new?["completed"] == 1)
        #expect(outcome.changes.keys.map(\.key) == ["lastCompletedTaskID"])
        #expect(outcome.value == .int(before.remaining - 1))

        // The tapped widget was reloaded at once, without spending its budget, and shows the change.
        #expect(outcome.reloads.contains { $0.reason == .interactiveIntent && $0.instanceIDs == [list.instance.id] })
        let after = try await harness.entry(of: list.instance.id, as: TaskListEntry.self)
        #expect(!after.tasks.map(\.id).contains("task-3"))
        #expect(after.remaining == before.remaining - 1)
        #expect(try await harness.state(of: list.instance.id).budget.used == 0)

        // An hour later the list rebuilds on its own schedule and still shows the change.
        let reloads = try await harness.advanceClock(by: 60 * 60)
        #expect(reloads.contains { $0.instanceIDs.contains(list.instance.id) })
        #expect(try await harness.entry(of: list.instance.id, as: TaskListEntry.self).remaining == after.remaining)
    }
}
