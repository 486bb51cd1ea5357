import DemoWidgets
import Foundation
import SharedState
import Synchronization
import Testing
import WidgetHost
import WidgetHostTesting

/// Reloads a perform owes: recorded with its commit, marked done once they ran, run at start-up and by a replay
/// when still owed (here because the engine's store was locked when they first ran).
@Suite("Intent owed reloads")
struct IntentOwedReloadTests {
    static let tapped = "tasks"
    static let progress = "progress"

    /// The demo catalog and intents over files in a directory, opened without a harness so the engine store can
    /// give up on a lock after 20 ms: a test makes a perform's reloads fail by holding that lock elsewhere.
    struct DemoFiles {
        let directory: URL
        let container: AppGroupContainer
        let engine: WidgetEngine
        let runner: IntentRunner

        /// Opens the files (a restart when they exist), loading the fixtures into a fresh container.
        init(_ directory: URL) throws {
            self.directory = directory
            container = try AppGroupContainer(identifier: DemoSchema.appGroup, dataDirectory: directory)
            if try FixtureLoader.isEmpty(container) {
                try FixtureLoader.load(Fixtures(directory: Fixtures.bundledDirectory), into: container)
            }
            let store = try EngineStore(database: DatabaseStore(path: Self.enginePath(directory),
                                                                configuration: .init(busyTimeout: .milliseconds(20))))
            engine = WidgetEngine(catalog: DemoCatalog.make(), store: store,
                                  clock: VirtualClock(start: WidgetHarness.defaultStart),
                                  timeZone: TimeZone(identifier: "UTC")!, containers: [container])
            runner = try IntentRunner(engine: engine, intents: DemoCatalog.makeIntents(), container: container)
        }

        static func enginePath(_ directory: URL) -> String {
            directory.appendingPathComponent("widgethost.sqlite").path
        }

        /// Places the task list `tasks` and the progress widget `progress` of `proj-launch`.
        func placeWidgets() async throws {
            try await engine.place(kind: DemoCatalog.Kind.taskList, family: .systemLarge,
                                   parameters: ["project": "proj-launch"], id: IntentOwedReloadTests.tapped)
            try await engine.place(kind: DemoCatalog.Kind.projectProgress, family: .systemSmall,
                                   parameters: ["project": "proj-launch"], id: IntentOwedReloadTests.progress)
        }

        /// Completes a task tapping the task list.
        func completeTask(_ taskID: String, key: String? = nil) async throws -> IntentOutcome {
            try await runner.perform(DemoCatalog.Intent.completeTask, parameters: ["taskId": .string(taskID)],
                                     instanceID: IntentOwedReloadTests.tapped, idempotencyKey: key)
        }

        /// Opens fresh files in `directory`, places the widgets, and completes `task-3` tapping the task list while the
        /// engine store is locked: the perform commits, its reloads fail and stay owed.
        static func withOwedTap(in directory: URL, key: String? = nil) async throws -> (DemoFiles, IntentOutcome) {
            let files = try DemoFiles(directory)
            try await files.placeWidgets()
            let outcome = try await files.whileEngineStoreIsLocked { try await files.completeTask("task-3", key: key) }
            return (files, outcome)
        }

        /// Runs `body` while another connection holds the engine store's write lock.
        func whileEngineStoreIsLocked<T>(_ body: () async throws -> T) async throws -> T {
            let blocker = try DatabaseStore(path: Self.enginePath(directory))
            return try await blocker.withWriteSession { _ in try await body() }
        }

        /// The task ids the task list shows now.
        func shownTaskIDs() async throws -> [String] {
            IntentReloadCrashTests.taskIDs(try await engine.entry(instanceID: IntentOwedReloadTests.tapped))
        }

        func owedRows() throws -> [IntentReloadCrashTests.OwedRow] {
            try IntentReloadCrashTests.owedRows(container)
        }
    }

    @Test
    func aReplayRunsTheReloadsItsFirstPerformStillOwes() async throws {
        let directory = try IntentReloadCrashTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (files, first) = try await DemoFiles.withOwedTap(in: directory, key: "tap-1")
        #expect(!first.isReplay)
        #expect(first.reloads.isEmpty)
        #expect(first.reloadFailure != nil)
        #expect(try await files.shownTaskIDs().contains("task-3"), "the reload failed: the old state is shown")
        #expect(try files.owedRows().map(\.isDone) == [false])

        let retry = try await files.completeTask("task-3", key: "tap-1")
        #expect(retry.isReplay)
        #expect(retry.reloadFailure == nil)
        #expect(retry.reloads.map(\.reason) == [.interactiveIntent, .kindReload])
        #expect(retry.reloads.map(\.instanceIDs) == [[Self.tapped], [Self.progress]])
        #expect(try await !files.shownTaskIDs().contains("task-3"))

        // Replayed in a batch like any perform, its reloads are marked done as a first perform's are: in the next
        // batch's transaction (here the second retry's), or by `markReloadsDone()`.
        let again = try await files.completeTask("task-3", key: "tap-1")
        #expect(again.isReplay)
        #expect(again.reloads.isEmpty, "nothing is owed any more")
        #expect(try files.owedRows().map(\.isDone) == [true])
    }

    @Test
    func startUpRunsWhatIsOwedOnce() async throws {
        let directory = try IntentReloadCrashTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (files, _) = try await DemoFiles.withOwedTap(in: directory)
        #expect(try await files.shownTaskIDs().contains("task-3"))

        let restarted = try DemoFiles(directory)
        let ran = try await restarted.runner.startUpReloads()
        #expect(ran.map(\.reason) == [.interactiveIntent, .kindReload])
        #expect(try await !restarted.shownTaskIDs().contains("task-3"))
        #expect(try await restarted.engine.state(ofInstance: Self.progress).budget.used == 1,
                "the budgeted reload is charged as it would have been after the commit")
        #expect(try restarted.owedRows().map(\.isDone) == [true])
        #expect(try await restarted.runner.startUpReloads() == ran, "the same answer, nothing run again")

        #expect(try await DemoFiles(directory).runner.startUpReloads().isEmpty)
    }

    @Test
    func aReloadOfAWidgetRemovedSinceIsDroppedWithoutError() async throws {
        let directory = try IntentReloadCrashTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (files, _) = try await DemoFiles.withOwedTap(in: directory)
        try await files.engine.remove(instanceID: Self.tapped)
        try await files.engine.remove(instanceID: Self.progress)

        let restarted = try DemoFiles(directory)
        #expect(try await restarted.runner.startUpReloads().isEmpty)
        #expect(try restarted.owedRows().map(\.isDone) == [true])
    }

    @Test
    func aPerformOwesItsReloadsUntilTheyRan() async throws {
        let harness = try IntentDemoTests.makeHarness()
        let list = try await harness.place(DemoCatalog.Kind.taskList, family: .systemLarge,
                                           parameters: ["project": "proj-launch"], id: Self.tapped)
        try await harness.perform(DemoCatalog.Intent.completeTask, ["taskId": "task-3"], tapping: list.instance.id,
                                  idempotencyKey: "tap-1")
        try await harness.perform(DemoCatalog.Intent.completeTask, ["taskId": "task-5"])
        await harness.runner.markReloadsDone()
        let rows = try IntentReloadCrashTests.owedRows(harness.container)
        #expect(rows == [
            IntentReloadCrashTests.OwedRow(key: "tap-1", instance: Self.tapped, requests: #"["ProjectProgress"]"#,
                                           isDone: true),
            IntentReloadCrashTests.OwedRow(key: nil, instance: nil, requests: #"["ProjectProgress"]"#, isDone: true),
        ])
    }

    @Test
    func aHarnessReopeningItsDirectoryRunsNothingTwice() async throws {
        let directory = try IntentReloadCrashTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try WidgetHarness(catalog: DemoCatalog.make(), intents: DemoCatalog.makeIntents(),
                                      appGroup: DemoSchema.appGroup, storage: .directory(directory)) { container in
            try FixtureLoader.load(Fixtures(directory: Fixtures.bundledDirectory), into: container)
        }
        let progress = try await first.place(DemoCatalog.Kind.projectProgress, family: .systemSmall,
                                             parameters: ["project": "proj-launch"], id: Self.progress)
        let outcome = try await first.perform(DemoCatalog.Intent.completeTask, ["taskId": "task-3"])
        #expect(outcome.reloads.map(\.chargedInstanceIDs) == [[progress.instance.id]])

        let reopened = try IntentReloadCrashTests.reopen(directory)
        #expect(try await reopened.runner.startUpReloads().isEmpty)
        #expect(try await reopened.state(of: Self.progress).budget.used == 1, "charged once")
    }

    @Test
    func concurrentRetriesOfATapRunItsReloadsOnce() async throws {
        let harness = try IntentDemoTests.makeHarness()
        let list = try await harness.place(DemoCatalog.Kind.taskList, family: .systemLarge,
                                           parameters: ["project": "proj-launch"], id: Self.tapped)
        let tappedRuns = Mutex(0)
        harness.engine.events.observe { event in
            if case .providerRan(let record) = event, record.reason == .interactiveIntent {
                tappedRuns.withLock { $0 += 1 }
            }
        }
        let outcomes = try await withThrowingTaskGroup(of: IntentOutcome.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    try await harness.perform(DemoCatalog.Intent.completeTask, ["taskId": "task-3"],
                                              tapping: list.instance.id, idempotencyKey: "tap-1")
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { !$0.isReplay }.count == 1)
        #expect(outcomes.filter(\.isReplay).allSatisfy { $0.reloads.isEmpty }, "no replay ran the first perform's reload")
        #expect(tappedRuns.withLock { $0 } == 1)
    }

    @Test
    func failedPerformsAndDryRunsOweNothing() async throws {
        let harness = try IntentTestSupport.makeHarness()
        await #expect(throws: FailAfterWritingIntent.Refused.self) {
            try await harness.perform("FailAfterWritingIntent", ["counter": "a"])
        }
        let dryRun = try await harness.perform("CountIntent", ["counter": "a"], dryRun: true)
        #expect(dryRun.requestedReloads == ["Counter"])
        #expect(try IntentReloadCrashTests.owedRows(harness.container).isEmpty)
        try await harness.perform("CountIntent", ["counter": "a"])
        #expect(try IntentReloadCrashTests.owedRows(harness.container).map(\.requests) == [#"["Counter"]"#])
    }
}
