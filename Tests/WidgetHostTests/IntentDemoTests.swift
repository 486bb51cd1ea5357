import DemoWidgets
import Foundation
import SharedState
import Testing
import WidgetHost
import WidgetHostTesting

/// Every demo intent, through the harness: what it changes, what it returns, what it reloads.
@Suite("Demo intents")
struct IntentDemoTests {
    static func makeHarness(budget: ReloadBudgetPolicy = .default) throws -> WidgetHarness {
        try WidgetHarness(catalog: DemoCatalog.make(), intents: DemoCatalog.makeIntents(),
                          appGroup: DemoSchema.appGroup, budget: budget) { container in
            try FixtureLoader.load(Fixtures(directory: Fixtures.bundledDirectory), into: container)
        }
    }

    private func completed(_ harness: WidgetHarness, _ taskID: String) throws -> Int? {
        try harness.read { db in try db.scalar("SELECT completed FROM tasks WHERE id = ?", [.text(taskID)], as: Int.self) }
    }

    @Test
    func completeTaskTwiceIsOneCompletion() async throws {
        let harness = try Self.makeHarness()
        let first = try await harness.perform(DemoCatalog.Intent.completeTask, ["taskId": "task-3"])
        #expect(first.changes.rows.map(\.operation) == [.update])
        #expect(first.changes.keys == [KeyChange(suite: DemoSchema.appGroup, key: "lastCompletedTaskID",
                                                  old: nil, new: .string("task-3"))])
        #expect(first.requestedReloads == [DemoCatalog.Kind.projectProgress])
        let second = try await harness.perform(DemoCatalog.Intent.completeTask, ["taskId": "task-3"])
        #expect(second.changes.isEmpty)
        #expect(second.requestedReloads.isEmpty)
        #expect(second.value == first.value)
        #expect(try completed(harness, "task-3") == 1)
    }

    @Test
    func completeTaskUpdatesProjectProgressThroughABudgetedReload() async throws {
        let harness = try Self.makeHarness()
        let progress = try await harness.place(DemoCatalog.Kind.projectProgress, family: .systemSmall,
                                               parameters: ["project": "proj-launch"])
        let before = try await harness.entry(of: progress.instance.id, as: ProjectProgressEntry.self)
        let outcome = try await harness.perform(DemoCatalog.Intent.completeTask, ["taskId": "task-5"])
        #expect(outcome.plannedReloads == [PlannedReload(instanceID: progress.instance.id,
                                                         kind: DemoCatalog.Kind.projectProgress,
                                                         reason: .kindReload, deferredByBudget: false)])
        #expect(outcome.reloads.map(\.reason) == [.kindReload])
        #expect(outcome.reloads.first?.chargedInstanceIDs == [progress.instance.id])
        let after = try await harness.entry(of: progress.instance.id, as: ProjectProgressEntry.self)
        #expect(after.completed == before.completed + 1)
        #expect(try await harness.state(of: progress.instance.id).budget.used == 1)
    }

    @Test
    func spentBudgetDefersTheKindReloadButNeverTheTappedOne() async throws {
        let harness = try Self.makeHarness(budget: ReloadBudgetPolicy(reloadsPerWindow: 1))
        let progress = try await harness.place(DemoCatalog.Kind.projectProgress, parameters: ["project": "proj-launch"])
        let list = try await harness.place(DemoCatalog.Kind.taskList, parameters: ["project": "proj-launch"])
        _ = try await harness.perform(DemoCatalog.Intent.completeTask, ["taskId": "task-3"], tapping: list.instance.id)
        let outcome = try await harness.perform(DemoCatalog.Intent.completeTask, ["taskId": "task-5"],
                                                tapping: list.instance.id)
        #expect(outcome.plannedReloads.map(\.deferredByBudget) == [false, true])
        #expect(outcome.reloads.map(\.reason) == [.interactiveIntent])
        #expect(try await harness.state(of: progress.instance.id).nextReload?.deferredByBudget == true)
        #expect(try await harness.state(of: list.instance.id).budget.used == 0)
        let shown = try await harness.entry(of: list.instance.id, as: TaskListEntry.self)
        #expect(shown.remaining == 1, "task-6 is the last open task of the project")
    }

    @Test
    func setTaskCompletedToggleSetsBothWays() async throws {
        let harness = try Self.makeHarness()
        let list = try await harness.place(DemoCatalog.Kind.taskList, family: .systemLarge,
                                           parameters: ["project": "proj-launch", "showCompleted": true])
        let off = try await harness.perform(DemoCatalog.Intent.setTaskCompleted,
                                            ["taskId": "task-1", "completed": false], tapping: list.instance.id)
        #expect(off.value == .bool(false))
        #expect(off.changes.rows.first?.new?["completed"] == 0)
        #expect(off.changes.keys.isEmpty, "un-completing does not touch lastCompletedTaskID")
        var shown = try await harness.entry(of: list.instance.id, as: TaskListEntry.self)
        #expect(shown.tasks.first { $0.id == "task-1" }?.completed == false)

        let on = try await harness.perform(DemoCatalog.Intent.setTaskCompleted, ["taskId": "task-1"],
                                           tapping: list.instance.id)
        #expect(on.parameters["completed"] == .bool(true), "the parameter's default applies")
        #expect(on.changes.rows.first?.new?["completed"] == 1)
        shown = try await harness.entry(of: list.instance.id, as: TaskListEntry.self)
        #expect(shown.tasks.first { $0.id == "task-1" }?.completed == true)

        let again = try await harness.perform(DemoCatalog.Intent.setTaskCompleted,
                                              ["taskId": "task-1", "completed": true])
        #expect(again.changes.isEmpty)
    }

    @Test
    func toggleFavoriteAddsThenRemoves() async throws {
        let harness = try Self.makeHarness()
        let added = try await harness.perform(DemoCatalog.Intent.toggleFavorite, ["itemID": "task-7"])
        #expect(added.value == .bool(true))
        #expect(added.changes.rows.map(\.table) == ["favorites"])
        #expect(added.changes.rows.map(\.operation) == [.insert])
        let row = try #require(added.changes.rows.first?.new)
        #expect(row["item_id"] == "task-7")
        #expect(row["kind"] == "task")
        // A REAL column may hand an integral value back as an integer (SQLite's storage optimisation).
        #expect(row["added_at"] == harness.now.sqlValue || row["added_at"] == .integer(Int64(harness.now.timeIntervalSince1970)))
        let removed = try await harness.perform(DemoCatalog.Intent.toggleFavorite, ["itemID": "task-7"])
        #expect(removed.value == .bool(false))
        #expect(removed.changes.rows.map(\.operation) == [.delete])
        let daily = try await harness.perform(DemoCatalog.Intent.toggleFavorite, ["itemID": "daily-2026-11-23"])
        #expect(daily.changes.rows.first?.new?["kind"] == "daily")
    }

    @Test
    func unknownIdsFailWithTheIntentsNameAndChangeNothing() async throws {
        let harness = try Self.makeHarness()
        // The runner answers as the API does: an IntentError naming the intent (the harness would hand over the
        // intent's own DemoIntentError).
        let error = await #expect(throws: IntentError.self) {
            try await harness.runner.perform(DemoCatalog.Intent.toggleFavorite, parameters: ["itemID": "nope"])
        }
        #expect(error?.intentName == DemoCatalog.Intent.toggleFavorite)
        #expect(error?.description.contains("nope") == true)
        await #expect(throws: IntentError.missingParameter(intent: "CompleteTaskIntent", parameter: "taskId")) {
            try await harness.perform(DemoCatalog.Intent.completeTask)
        }
        await #expect(throws: IntentError.self) {
            try await harness.perform(DemoCatalog.Intent.completeTask, ["taskId": 3])
        }
        await #expect(throws: IntentError.self) {
            try await harness.perform(DemoCatalog.Intent.completeTask, ["taskId": "task-3", "extra": true])
        }
        await #expect(throws: IntentError.self) { try await harness.perform("NoSuchIntent") }
        let count = try harness.read { db in try db.scalar("SELECT COUNT(*) FROM favorites", as: Int.self) }
        #expect(count == 3)
    }
}
