import DemoWidgets
import Foundation
import ProcessTestSupport
import SharedState
import Testing
import WidgetHost
import WidgetHostTesting

/// A tap whose process is SIGKILLed between its commit and its reloads: after a restart on the same files, the
/// tapped widget shows the perform, the owed reloads are done, and a retry of the tap replays.
///
/// `intents-crashperformer tap` places the demo task list `tasks` and progress widget `progress` (both
/// `proj-launch`), completes `task-3` tapping `tasks` with the key `tap-1`, and kills itself at the kill point.
@Suite("Intent reloads across a crash")
struct IntentReloadCrashTests {
    static let tapped = "tasks"
    static let progress = "progress"
    static let key = "tap-1"

    /// A row of `widgethost_owed_reloads`, as the restart test reads it from the file.
    struct OwedRow: Equatable {
        var key: String?
        var instance: String?
        var requests: String
        var isDone: Bool
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["in-tapped-reload", "after-reloads"])
    func theTappedWidgetShowsThePerformAfterARestart(killPoint: String) async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let child = try await FinishedChild.run(try IntentCrashTests.performerURL(), ["tap", directory.path, killPoint])
        try #require(child.reason == .uncaughtSignal && child.status == SIGKILL,
                     "the performer did not kill itself: \(child.standardError)")

        // Before the restart: the perform committed and owes its reloads; at the first kill point none ran.
        let stale = killPoint == "in-tapped-reload"
        do {
            let container = try AppGroupContainer(identifier: DemoSchema.appGroup, dataDirectory: directory)
            #expect(try Self.isCompleted("task-3", container))
            #expect(try Self.owedRows(container) == [OwedRow(key: Self.key, instance: Self.tapped,
                                                             requests: #"["ProjectProgress"]"#, isDone: false)])
            let engine = WidgetEngine(catalog: DemoCatalog.make(), store: try EngineStore(directory: directory),
                                      clock: VirtualClock(start: WidgetHarness.defaultStart), containers: [container])
            let shown = Self.taskIDs(try await engine.entry(instanceID: Self.tapped))
            #expect(shown.contains("task-3") == stale, "the kill landed \(stale ? "before" : "after") the reloads")
        }

        // The restart: a harness on the same files, as a host's tests reopen them (the daemon does the same).
        let harness = try Self.reopen(directory)
        let ran = try await harness.runner.startUpReloads()
        #expect(ran.contains { $0.reason == .interactiveIntent && $0.instanceIDs == [Self.tapped] })
        #expect(ran.contains { $0.reason == .kindReload && $0.instanceIDs == [Self.progress] })
        let list = try await harness.entry(of: Self.tapped, as: TaskListEntry.self)
        #expect(!list.tasks.map(\.id).contains("task-3"))
        let openTasks = try harness.read { db in
            try db.scalar("SELECT COUNT(*) FROM tasks WHERE project_id = 'proj-launch' AND completed = 0", as: Int.self)
        }
        #expect(list.remaining == openTasks)
        let progress = try await harness.entry(of: Self.progress, as: ProjectProgressEntry.self)
        #expect(progress.completed == progress.total - (openTasks ?? 0))
        #expect(try Self.owedRows(harness.container).map(\.isDone) == [true])

        // The client's retry is a replay: nothing left to reload, and the widget keeps showing the tap.
        let retry = try await harness.perform(DemoCatalog.Intent.completeTask, ["taskId": "task-3"],
                                              tapping: Self.tapped, idempotencyKey: Self.key)
        #expect(retry.isReplay)
        #expect(retry.reloads.isEmpty)
        #expect(try await !harness.entry(of: Self.tapped, as: TaskListEntry.self).tasks.map(\.id).contains("task-3"))

        // Another restart has nothing left to run.
        #expect(try await Self.reopen(directory).runner.startUpReloads().isEmpty)
    }

    static func reopen(_ directory: URL) throws -> WidgetHarness {
        try WidgetHarness(catalog: DemoCatalog.make(), intents: DemoCatalog.makeIntents(), appGroup: DemoSchema.appGroup,
                          storage: .directory(directory))
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("IntentReloadCrashTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func isCompleted(_ taskID: String, _ container: AppGroupContainer) throws -> Bool {
        try container.store.read { db in
            try db.scalar("SELECT completed FROM tasks WHERE id = ?", [.text(taskID)], as: Int.self) == 1
        }
    }

    static func owedRows(_ container: AppGroupContainer) throws -> [OwedRow] {
        try container.store.read { db in
            try db.query("SELECT idempotency_key, instance_id, requests, done_at FROM widgethost_owed_reloads ORDER BY id")
                .map { row in
                    OwedRow(key: row.string("idempotency_key"), instance: row.string("instance_id"),
                            requests: row.string("requests") ?? "", isDone: row.double("done_at") != nil)
                }
        }
    }

    /// The ids of the tasks a task-list entry lists.
    static func taskIDs(_ entry: EntrySnapshot) -> [String] {
        guard case .array(let tasks)? = entry.content.objectValue?["tasks"] else { return [] }
        return tasks.compactMap { $0.objectValue?["id"]?.stringValue }
    }
}
