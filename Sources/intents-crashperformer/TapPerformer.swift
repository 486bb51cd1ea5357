import DemoWidgets
import Foundation
import Synchronization
import WidgetHost
import WidgetHostTesting
import WidgetKit

/// `intents-crashperformer tap <data-directory> <kill-point>`: one tap that dies between its commit and the moment
/// its reloads are marked done, at a chosen point, so the restart test knows exactly what was and was not written.
///
/// Sets up a ``WidgetHarness`` on the directory (demo container with the fixtures, engine store, virtual clock at
/// the harness's default start: what the test reopens), places the task list `tasks` and the progress widget
/// `progress` of `proj-launch`, then performs `CompleteTaskIntent` on `task-3` tapping `tasks`, with the
/// idempotency key `tap-1`. It sends itself SIGKILL at the kill point; reaching the end is an error (exit 1).
enum TapPerformer {
    /// Where the process kills itself.
    enum KillPoint: String {
        /// When the tapped task list's provider starts its post-commit run: the perform is committed, no reload
        /// has written anything.
        case inTappedReload = "in-tapped-reload"
        /// When the last reload (the budgeted progress widget's) has been stored: every reload ran, none is marked
        /// done.
        case afterReloads = "after-reloads"
    }

    static let tappedInstance = "tasks"
    static let progressInstance = "progress"
    static let idempotencyKey = "tap-1"

    static func run(dataDirectory: URL, killPoint: KillPoint) async throws -> Never {
        let harness = try WidgetHarness(catalog: catalog(), intents: DemoCatalog.makeIntents(),
                                        appGroup: DemoSchema.appGroup, storage: .directory(dataDirectory)) { container in
            if try FixtureLoader.isEmpty(container) {
                try FixtureLoader.load(Fixtures(directory: Fixtures.bundledDirectory), into: container)
            }
        }
        try await harness.place(DemoCatalog.Kind.taskList, family: .systemLarge, parameters: ["project": "proj-launch"],
                                id: tappedInstance)
        try await harness.place(DemoCatalog.Kind.projectProgress, family: .systemSmall,
                                parameters: ["project": "proj-launch"], id: progressInstance)
        switch killPoint {
        case .inTappedReload:
            KillSwitch.armed.store(true, ordering: .releasing)
        case .afterReloads:
            harness.engine.events.observe { event in
                if case .providerRan(let record) = event, record.reason == .kindReload { KillSwitch.fire() }
            }
        }
        let outcome = try await harness.perform(DemoCatalog.Intent.completeTask, ["taskId": "task-3"],
                                                tapping: tappedInstance, idempotencyKey: idempotencyKey)
        FileHandle.standardError.write(Data("intents-crashperformer: not killed at \(killPoint.rawValue); reloads: \(outcome.reloads)\n".utf8))
        exit(1)
    }

    /// The demo's task list and progress kinds; the task list's provider kills the process once armed.
    static func catalog() -> WidgetCatalog {
        var catalog = WidgetCatalog()
        catalog.register(kind: DemoCatalog.Kind.projectProgress, families: [.systemSmall],
                         provider: ProjectProgressProvider())
        catalog.register(kind: DemoCatalog.Kind.taskList, families: [.systemLarge], provider: KillingTaskListProvider())
        return catalog
    }
}

/// The kill, armed from the scenario, fired from inside the engine.
enum KillSwitch {
    static let armed = Atomic<Bool>(false)

    static func fire() -> Never {
        kill(getpid(), SIGKILL)
        fatalError("SIGKILL did not end the process")
    }
}

/// The demo task list's provider, but its timeline path kills the process once ``KillSwitch`` is armed.
struct KillingTaskListProvider: AppIntentTimelineProvider, Sendable {
    let provider = TaskListProvider()

    func placeholder(in context: Context) -> TaskListEntry { provider.placeholder(in: context) }

    func snapshot(for configuration: TaskListIntent, in context: Context) async -> TaskListEntry {
        await provider.snapshot(for: configuration, in: context)
    }

    func timeline(for configuration: TaskListIntent, in context: Context) async -> Timeline<TaskListEntry> {
        if KillSwitch.armed.load(ordering: .acquiring) { KillSwitch.fire() }
        return await provider.timeline(for: configuration, in: context)
    }
}
