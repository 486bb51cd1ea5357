import AppIntents
import Foundation
import JSON
import SharedState
import Testing
import WidgetHost
import WidgetKit

@Suite("Controls performed through the intent runner")
struct ControlTests {
    typealias Support = ControlTestSupport

    @Test("toggle round trip: perform, the shared state changes, the value reads back, the reloads are recorded")
    func toggleRoundTrip() async throws {
        let fixture = try ControlFixture()
        let placed = try await fixture.engine.placeControl(kind: Support.focus, id: "focus")
        try await fixture.engine.placeControl(kind: Support.status, id: "status")
        #expect(placed.value == .bool(false))

        let outcome = try await fixture.runner.performControl(id: "focus", value: true)
        #expect(try Support.isFocusing(fixture.container) == true)
        #expect(outcome.value == .bool(true))
        #expect(outcome.intent.requestedControlReloads == [Support.status])
        #expect(outcome.intent.requestedReloads == ["FocusWidget"])
        #expect(!outcome.intent.changes.isEmpty)
        #expect(outcome.reloads.map(\.instanceID) == ["focus", "status"])
        #expect(outcome.reloads.map(\.reason) == [.performed, .kindReload])
        #expect(outcome.reloads.map(\.value) == [.bool(true), .bool(true)])
        #expect(try await fixture.engine.control(id: "focus").value == .bool(true))
        #expect(try await fixture.engine.control(id: "status").value == .bool(true))
        let log = try await fixture.engine.controlReloads()
        #expect(log.map(\.reason) == [.placed, .placed, .performed, .kindReload])

        let back = try await fixture.runner.performControl(id: "focus", value: false)
        #expect(back.value == .bool(false))
        #expect(try Support.isFocusing(fixture.container) == false)
    }

    @Test("a failing intent changes nothing: no state, no reload, the control keeps its value")
    func failingIntentChangesNothing() async throws {
        let fixture = try ControlFixture()
        try await fixture.engine.placeControl(kind: Support.broken, id: "broken")
        try await fixture.engine.placeControl(kind: Support.focus, id: "focus")
        await #expect(throws: IntentError.self) {
            try await fixture.runner.performControl(id: "broken", value: true)
        }
        #expect(try Support.isFocusing(fixture.container) == nil)
        #expect(try await fixture.engine.controlReloads().map(\.reason) == [.placed, .placed])
        #expect(try await fixture.engine.control(id: "broken").value == .bool(false))
        await #expect(throws: FocusUnavailable.self) {
            _ = try await fixture.runner.performRethrowing(
                PerformRequest(intentName: "FailingFocusIntent", parameters: ["value": .bool(true)]))
        }
    }

    @Test("a dry run reports the change and reloads nothing")
    func dryRun() async throws {
        let fixture = try ControlFixture()
        try await fixture.engine.placeControl(kind: Support.focus, id: "focus")
        let outcome = try await fixture.runner.performControl(id: "focus", value: true, dryRun: true)
        #expect(outcome.intent.isDryRun)
        #expect(!outcome.intent.changes.isEmpty)
        #expect(outcome.intent.requestedControlReloads == [Support.status])
        #expect(outcome.reloads.isEmpty && outcome.value == nil)
        #expect(try Support.isFocusing(fixture.container) == nil)
        #expect(try await fixture.engine.control(id: "focus").value == .bool(false))
        #expect(try await fixture.engine.controlReloads().count == 1)
    }

    @Test("a retry with the same key returns the first outcome without running or reloading again")
    func idempotentRetry() async throws {
        let fixture = try ControlFixture()
        try await fixture.engine.placeControl(kind: Support.focus, id: "focus")
        let first = try await fixture.runner.performControl(id: "focus", value: true, idempotencyKey: "tap-1")
        #expect(!first.intent.isReplay && first.reloads.count == 1)
        // Turned off by another request in between: a replay of tap-1 must not turn it on again.
        _ = try await fixture.runner.performControl(id: "focus", value: false, idempotencyKey: "tap-2")
        let retry = try await fixture.runner.performControl(id: "focus", value: true, idempotencyKey: "tap-1")
        #expect(retry.intent.isReplay)
        #expect(retry.intent.requestedControlReloads == [Support.status])
        #expect(retry.reloads.isEmpty)
        #expect(try Support.isFocusing(fixture.container) == false)
        #expect(try await fixture.engine.controlReloads().map(\.reason) == [.placed, .performed, .performed])
        await #expect(throws: IntentError.self) {
            try await fixture.runner.performControl(id: "focus", value: false, idempotencyKey: "tap-1")
        }
    }

    @Test("ControlCenter reloads asked for by a button's intent reload every placed control")
    func controlCenterReloadsFromIntent() async throws {
        let fixture = try ControlFixture()
        try await fixture.engine.placeControl(kind: Support.focus, id: "focus")
        try await fixture.engine.placeControl(kind: Support.status, id: "status")
        try await fixture.engine.placeControl(kind: Support.end, id: "end")
        _ = try await fixture.runner.performControl(id: "focus", value: true)
        let pressed = try await fixture.runner.pressControl(id: "end")
        #expect(pressed.intent.requestedControlReloads == ["*"])
        #expect(pressed.reloads.map(\.instanceID) == ["end", "focus", "status"])
        #expect(pressed.reloads.map(\.reason) == [.performed, .allReload, .allReload])
        #expect(pressed.reloads.map(\.value) == [nil, .bool(false), .bool(false)])
        #expect(try await fixture.engine.control(id: "focus").value == .bool(false))
        #expect(try await fixture.engine.currentControls().map(\.id) == ["focus", "status", "end"])
    }

    @Test("a toggle is set, a button pressed; unknown controls and kinds are refused")
    func refusals() async throws {
        let fixture = try ControlFixture()
        try await fixture.engine.placeControl(kind: Support.focus, id: "focus")
        try await fixture.engine.placeControl(kind: Support.end, id: "end")
        await #expect(throws: ControlError.wrongStyle(kind: Support.focus, style: .toggle)) {
            try await fixture.runner.pressControl(id: "focus")
        }
        await #expect(throws: ControlError.wrongStyle(kind: Support.end, style: .button)) {
            try await fixture.runner.performControl(id: "end", value: true)
        }
        await #expect(throws: ControlError.unknownControl("nope")) {
            try await fixture.runner.performControl(id: "nope", value: true)
        }
        await #expect(throws: ControlError.unknownKind("Nope")) {
            try await fixture.engine.placeControl(kind: "Nope")
        }
        await #expect(throws: ControlError.duplicateControl("focus")) {
            try await fixture.engine.placeControl(kind: Support.focus, id: "focus")
        }
        try await fixture.engine.removeControl(id: "end")
        #expect(try await fixture.engine.placedControls().map(\.id) == ["focus"])
        #expect(try Support.isFocusing(fixture.container) == nil)
    }
}

@Suite("Controls and the engine's user code")
struct ControlUserCodeTests {
    typealias Support = ControlTestSupport

    @Test("ControlCenter requests from a widget provider are applied after it returns")
    func providerReloadsControls() async throws {
        let fixture = try ControlFixture(widgets: Support.widgetsReloadingControls)
        try await fixture.engine.placeControl(kind: Support.focus, id: "focus")
        try await fixture.engine.placeControl(kind: Support.status, id: "status")
        try await fixture.engine.place(kind: "FocusSummary", family: .systemSmall, id: "summary")
        let log = try await fixture.engine.controlReloads()
        #expect(log.map(\.reason) == [.placed, .placed, .kindReload])
        #expect(log.last?.instanceID == "focus")
    }

    @Test("ControlCenter.shared.currentControls() inside a perform lists the placed controls")
    func currentControlsInsidePerform() async throws {
        let fixture = try ControlFixture()
        try await fixture.engine.placeControl(kind: Support.focus, id: "focus")
        try await fixture.engine.placeControl(kind: Support.count, id: "count")
        let outcome = try await fixture.runner.pressControl(id: "count")
        #expect(outcome.intent.value == .int(2))
    }

    @Test("placed controls and their values survive a restart")
    func durable() async throws {
        let fixture = try ControlFixture()
        try await fixture.engine.placeControl(kind: Support.focus, id: "focus")
        _ = try await fixture.runner.performControl(id: "focus", value: true)
        // As a process does before it exits: the reload already run is marked done, not run again at the reopen.
        await fixture.runner.markReloadsDone()
        let reopened = try ControlFixture(directory: fixture.directory)
        #expect(try await reopened.engine.placedControls().map(\.id) == ["focus"])
        #expect(try await reopened.engine.control(id: "focus").value == .bool(true))
        #expect(try await reopened.engine.controlReloads().map(\.reason) == [.placed, .performed])
    }
}

@Suite("The widget push handler")
struct WidgetPushHandlerTests {
    static func handed(_ container: AppGroupContainer) throws -> (token: String?, widgets: [String]) {
        let suite = container.suite()
        var token: String?
        if case .string(let text)? = try suite.readValue(forKey: "push.token") { token = text }
        var widgets: [String] = []
        if case .array(let values)? = try suite.readValue(forKey: "push.widgets") {
            widgets = values.compactMap { if case .string(let id) = $0 { id } else { nil } }
        }
        return (token, widgets)
    }

    static func hex(_ token: Data) -> String { token.map { String(format: "%02x", $0) }.joined() }

    @Test("pushTokenDidChange is called when the token is issued, not again when it is only read")
    func calledOnIssue() async throws {
        let fixture = try ControlFixture(widgets: ControlTestSupport.widgets)
        #expect(await fixture.engine.widgetPushHandlerCalls == 0)
        let token = try await fixture.engine.widgetPushToken()
        #expect(await fixture.engine.widgetPushHandlerCalls == 1)
        #expect(try Self.handed(fixture.container).token == Self.hex(token))
        #expect(try await fixture.engine.widgetPushToken() == token)
        #expect(await fixture.engine.widgetPushHandlerCalls == 1)
    }

    @Test("pushTokenDidChange is called with the placed widgets whenever one is placed or removed")
    func calledOnPlacementChange() async throws {
        let fixture = try ControlFixture(widgets: ControlTestSupport.widgets)
        try await fixture.engine.place(kind: "FocusWidget", family: .systemSmall, id: "w1")
        #expect(await fixture.engine.widgetPushHandlerCalls == 1)
        let token = try await fixture.engine.widgetPushToken()
        #expect(try Self.handed(fixture.container).token == Self.hex(token))
        #expect(try Self.handed(fixture.container).widgets == ["w1"])
        try await fixture.engine.place(kind: "FocusWidget", family: .systemSmall, id: "w2")
        #expect(try Self.handed(fixture.container).widgets == ["w1", "w2"])
        try await fixture.engine.remove(instanceID: "w1")
        #expect(try Self.handed(fixture.container).widgets == ["w2"])
        #expect(await fixture.engine.widgetPushHandlerCalls == 3)
        // Reconfiguring or reloading a widget does not change the set: no call.
        _ = try await fixture.engine.reloadAllTimelines()
        #expect(await fixture.engine.widgetPushHandlerCalls == 3)
    }

    @Test("without a handler, placing widgets issues no token")
    func noHandler() async throws {
        var catalog = WidgetCatalog()
        catalog.register(kind: "FocusWidget", displayName: "Focus", families: [.systemSmall],
                         provider: ScriptedProvider(offsets: [0], policy: { _ in .never }))
        let fixture = try ControlFixture(widgets: catalog)
        try await fixture.engine.place(kind: "FocusWidget", family: .systemSmall, id: "w1")
        #expect(await fixture.engine.widgetPushHandlerCalls == 0)
        #expect(try Self.handed(fixture.container).token == nil)
    }
}
