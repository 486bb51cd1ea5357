import DemoWidgets
import Foundation
import ProcessTestSupport
import SharedState
import Testing
import WidgetHost
import WidgetHostTesting

/// A control toggled by a process SIGKILLed between the perform's commit and the control reading its value again:
/// after a restart on the same files, the owed control reloads run, the toggle shows its new value, and a retry
/// replays.
///
/// `intents-crashperformer control` places the demo focus toggle `focus` and the project focus toggle `launch`
/// (`proj-launch`), sets `focus` on with the key `focus-1`, and dies as the focus toggle's value is read again.
@Suite("Control reloads across a crash")
struct ControlReloadCrashTests {
    static let focus = "focus"
    static let projectFocus = "launch"
    static let key = "focus-1"

    @Test(.timeLimit(.minutes(1)))
    func theToggledControlShowsItsValueAfterARestart() async throws {
        let directory = try IntentReloadCrashTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let child = try await FinishedChild.run(try IntentCrashTests.performerURL(), ["control", directory.path])
        try #require(child.reason == .uncaughtSignal && child.status == SIGKILL,
                     "the performer did not kill itself: \(child.standardError)")

        // Before the restart: the perform is committed and its control reloads owed; the toggle still shows off.
        do {
            let container = try AppGroupContainer(identifier: DemoSchema.appGroup, dataDirectory: directory)
            let focusing = try container.suite().readValue(forKey: DemoSchema.focusModeKey)
            #expect(focusing == .bool(true))
            let rows = try Self.owedRows(container)
            #expect(rows.count == 1)
            #expect(rows.first?.control == Self.focus)
            #expect(rows.first?.controlRequests == #"["\#(DemoCatalog.Control.projectFocus)"]"#)
            #expect(rows.first?.isDone == false)
            let engine = WidgetEngine(catalog: DemoCatalog.make(), store: try EngineStore(directory: directory),
                                      clock: VirtualClock(start: WidgetHarness.defaultStart), containers: [container],
                                      controls: DemoCatalog.makeControls())
            #expect(try await engine.control(id: Self.focus).value == .bool(false))
            #expect(try await engine.controlReloads().map(\.reason) == [.placed, .placed])
        }

        // The restart: a harness on the same files runs what is owed before anything else.
        let harness = try Self.reopen(directory)
        let ran = try await harness.runner.startUpControlReloads()
        #expect(ran.map(\.instanceID) == [Self.focus, Self.projectFocus])
        #expect(ran.map(\.reason) == [.performed, .kindReload])
        #expect(try await harness.controlValue(Self.focus) == .bool(true))
        #expect(try await harness.controlValue(Self.projectFocus) == .bool(false))
        #expect(try Self.owedRows(harness.container).map(\.isDone) == [true])

        // The client's retry is a replay: it runs nothing again and the toggle keeps its value.
        let retry = try await harness.setControl(Self.focus, to: true, idempotencyKey: Self.key)
        #expect(retry.intent.isReplay)
        #expect(retry.reloads.isEmpty)
        #expect(try await harness.engine.controlReloads().count == 4)

        // Another restart has nothing left to run.
        #expect(try await Self.reopen(directory).runner.startUpControlReloads().isEmpty)
    }

    static func reopen(_ directory: URL) throws -> WidgetHarness {
        try WidgetHarness(catalog: DemoCatalog.make(), intents: DemoCatalog.makeIntents(), appGroup: DemoSchema.appGroup,
                          storage: .directory(directory), controls: DemoCatalog.makeControls())
    }

    struct OwedRow: Equatable {
        var control: String?
        var controlRequests: String?
        var isDone: Bool
    }

    static func owedRows(_ container: AppGroupContainer) throws -> [OwedRow] {
        try container.store.read { db in
            try db.query("SELECT control_id, control_requests, done_at FROM widgethost_owed_reloads ORDER BY id")
                .map { row in
                    OwedRow(control: row.string("control_id"), controlRequests: row.string("control_requests"),
                            isDone: row.double("done_at") != nil)
                }
        }
    }
}
