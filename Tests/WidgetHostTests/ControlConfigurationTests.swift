import AppIntents
import DemoWidgets
import Foundation
import JSON
import Testing
import WidgetHost
import WidgetHostTesting
import WidgetKit

/// Configurable controls, through the demo's project focus toggle (configured with a `ProjectEntity`) in a harness.
@Suite("Configurable controls")
struct ControlConfigurationTests {
    static func harness() throws -> WidgetHarness {
        try WidgetHarness(catalog: DemoCatalog.make(), intents: DemoCatalog.makeIntents(), appGroup: DemoSchema.appGroup,
                          controls: DemoCatalog.makeControls()) { container in
            try FixtureLoader.load(Fixtures(directory: Fixtures.bundledDirectory), into: container)
        }
    }

    @Test("each placed control carries its configuration; performing uses it and reads the value through it")
    func configuredToggles() async throws {
        let harness = try Self.harness()
        let launch = try await harness.placeControl(DemoCatalog.Control.projectFocus, id: "launch",
                                                    configuration: ["project": "proj-launch"])
        try await harness.placeControl(DemoCatalog.Control.projectFocus, id: "thesis",
                                       configuration: ["project": "proj-thesis"])
        try await harness.placeControl(DemoCatalog.Control.focus, id: "focus")
        #expect(launch.configuration == ["project": "proj-launch"])
        #expect(launch.value == .bool(false))

        let outcome = try await harness.setControl("thesis", to: true)
        #expect(outcome.intent.parameters["project"] == "proj-thesis")
        #expect(try harness.defaultsValue(forKey: DemoSchema.focusProjectKey) == .string("proj-thesis"))
        #expect(outcome.reloads.map(\.instanceID) == ["thesis", "launch", "focus"])
        #expect(outcome.reloads.map(\.reason) == [.performed, .kindReload, .kindReload])
        #expect(outcome.reloads.map(\.value) == [.bool(true), .bool(false), .bool(true)])
        #expect(try await harness.controlValue("thesis") == .bool(true))
        #expect(try await harness.controlValue("launch") == .bool(false))

        // ControlCenter.currentControls() hands each configurable control its own configuration intent.
        let infos = try await harness.engine.currentControls()
        #expect(infos.map { $0.configurationIntent(of: SelectFocusProjectIntent.self)?.project.id }
                == ["proj-launch", "proj-thesis", nil])
    }

    @Test("a configuration the intent does not accept is refused, naming the parameter, and nothing is placed",
          arguments: [
              (["project": "proj-nope"] as [String: JSONValue], "project"),
              ([:], "project"),
              (["project": 7], "project"),
              (["project": "proj-launch", "colour": "red"], "colour"),
          ])
    func invalidConfigurations(configuration: [String: JSONValue], parameter: String) async throws {
        let harness = try Self.harness()
        do {
            try await harness.placeControl(DemoCatalog.Control.projectFocus, id: "p", configuration: configuration)
            Issue.record("placed with \(configuration)")
        } catch let ControlError.invalidConfiguration(kind, named, problem) {
            #expect(kind == DemoCatalog.Control.projectFocus)
            #expect(named == parameter, "\(problem)")
        }
        #expect(try await harness.engine.placedControls().isEmpty)
        #expect(try await harness.engine.controlReloads().isEmpty)
    }

    @Test("a static control takes no configuration")
    func staticKindRefusesConfiguration() async throws {
        let harness = try Self.harness()
        await #expect(throws: ControlError.invalidConfiguration(kind: DemoCatalog.Control.focus, parameter: "project",
                                                                problem: "the kind takes no configuration")) {
            try await harness.placeControl(DemoCatalog.Control.focus, id: "f", configuration: ["project": "proj-launch"])
        }
        #expect(try await harness.engine.placedControls().isEmpty)
    }

    @Test("an idempotency key is bound to its control: the same key on another control of the kind is refused")
    func keysAreBoundToTheControl() async throws {
        let harness = try Self.harness()
        try await harness.placeControl(DemoCatalog.Control.focus, id: "a")
        try await harness.placeControl(DemoCatalog.Control.focus, id: "b")
        _ = try await harness.setControl("a", to: true, idempotencyKey: "k")
        #expect(try await harness.setControl("a", to: true, idempotencyKey: "k").intent.isReplay)
        await #expect(throws: IntentError.idempotencyKeyReused(intent: "SetFocusModeIntent", key: "k")) {
            try await harness.setControl("b", to: true, idempotencyKey: "k")
        }
    }

    @Test("currentControls() inside a perform hands each configurable control its configuration intent")
    func configurationsInsideAPerform() async throws {
        var controls = ControlCatalog()
        controls.registerToggle(kind: DemoCatalog.Control.projectFocus, intent: FocusProjectIntent.self,
                                provider: ProjectFocusValueProvider())
        controls.registerButton(kind: "ListFocusProjects", intent: ListFocusProjectsIntent.self)
        let harness = try WidgetHarness(catalog: DemoCatalog.make(), appGroup: DemoSchema.appGroup,
                                        controls: controls) { container in
            try FixtureLoader.load(Fixtures(directory: Fixtures.bundledDirectory), into: container)
        }
        try await harness.placeControl(DemoCatalog.Control.projectFocus, id: "launch",
                                       configuration: ["project": "proj-launch"])
        try await harness.placeControl("ListFocusProjects", id: "list")
        let outcome = try await harness.pressControl("list")
        #expect(outcome.intent.value == .string("launch=proj-launch,list=-"))
    }

    @Test("ControlCenter requests of a widget's intent are owed and run after its commit, like its widget reloads")
    func widgetIntentReloadsControls() async throws {
        let fixture = try ControlFixture()
        try await fixture.engine.placeControl(kind: ControlTestSupport.status, id: "status")
        let outcome = try await fixture.runner.perform("SetFocusIntent", parameters: ["value": true])
        #expect(outcome.requestedControlReloads == [ControlTestSupport.status])
        #expect(outcome.controlReloads.map(\.instanceID) == ["status"])
        #expect(outcome.controlReloads.map(\.value) == [.bool(true)])
        #expect(try await fixture.engine.control(id: "status").value == .bool(true))
    }
}

/// A button answering each placed control's configured project, as `ControlCenter.shared.currentControls()` hands
/// them to an intent.
struct ListFocusProjectsIntent: AppIntent {
    static let title: LocalizedStringResource = "List focus projects"

    func perform() async throws -> some IntentResult & ReturnsValue<String> {
        let controls = try await ControlCenter.shared.currentControls()
        let pairs = controls.map { "\($0.id)=\($0.configurationIntent(of: SelectFocusProjectIntent.self)?.project.id ?? "-")" }
        return .result(value: pairs.joined(separator: ","))
    }
}
