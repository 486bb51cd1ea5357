import DemoWidgets
import Foundation
import SharedState
import Testing
import WidgetHost
import WidgetHostTesting

/// A dry run reports the diff and the reloads a perform would cause, and changes nothing.
@Suite("Intent dry runs")
struct IntentDryRunTests {
    @Test
    func dryRunReportsButChangesNothing() async throws {
        let harness = try IntentDemoTests.makeHarness()
        let list = try await harness.place(DemoCatalog.Kind.taskList, parameters: ["project": "proj-launch"])
        let progress = try await harness.place(DemoCatalog.Kind.projectProgress)
        let entryBefore = try await harness.entry(of: list.instance.id)
        let runsBefore = try await harness.state(of: list.instance.id).providerRuns

        let outcome = try await harness.perform(DemoCatalog.Intent.completeTask, ["taskId": "task-3"],
                                                tapping: list.instance.id, idempotencyKey: "dry", dryRun: true)
        #expect(outcome.isDryRun)
        #expect(outcome.changes.rows.first?.new?["completed"] == 1)
        #expect(outcome.changes.keys.map(\.key) == ["lastCompletedTaskID"])
        #expect(outcome.plannedReloads.map(\.instanceID) == [list.instance.id, progress.instance.id])
        #expect(outcome.plannedReloads.map(\.reason) == [.interactiveIntent, .kindReload])
        #expect(outcome.reloads.isEmpty)
        #expect(outcome.idempotency == nil)

        let completed = try harness.read { db in
            try db.scalar("SELECT completed FROM tasks WHERE id = 'task-3'", as: Int.self)
        }
        #expect(completed == 0)
        #expect(try harness.defaultsValue(forKey: "lastCompletedTaskID") == nil)
        #expect(try await harness.entry(of: list.instance.id) == entryBefore)
        #expect(try await harness.state(of: list.instance.id).providerRuns == runsBefore)
        #expect(try await harness.state(of: progress.instance.id).budget.used == 0)
        let keys = try harness.read { db in try db.scalar("SELECT COUNT(*) FROM widgethost_intent_keys", as: Int.self) }
        #expect(keys == 0)

        // The same request for real does what the dry run said.
        let real = try await harness.perform(DemoCatalog.Intent.completeTask, ["taskId": "task-3"],
                                             tapping: list.instance.id, idempotencyKey: "dry")
        #expect(!real.isReplay)
        #expect(real.changes == outcome.changes)
        #expect(real.plannedReloads == outcome.plannedReloads)
    }

    @Test
    func dryRunsInABatchDoNotUndoTheirNeighbours() async throws {
        let harness = try IntentTestSupport.makeHarness()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await harness.perform("CountIntent", ["counter": "a"], dryRun: index.isMultiple(of: 2))
                }
            }
            try await group.waitForAll()
        }
        #expect(try IntentTestSupport.counter(harness, "a") == 10)
        #expect(try IntentTestSupport.logRows(harness) == ["a": 10])
    }
}
