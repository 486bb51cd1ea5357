import DemoWidgets
import Foundation
import JSON
import SharedState
import Testing
import WidgetHost

@Suite("Parameter resolution")
struct ParameterResolutionTests {
    @Test("a deleted project falls back to the default with a diagnostic, never a crash")
    func deletedProjectFallsBack() async throws {
        let fixture = try EngineFixture()
        let placed = try await fixture.engine.place(kind: DemoCatalog.Kind.projectProgress, family: .systemSmall,
                                                    parameters: ["project": "proj-move"], id: "p")
        #expect(placed.currentEntry?.content.objectValue?["projectName"] == .string("Moving House"))
        #expect(!placed.diagnostics.contains { $0.code == .deletedEntity })

        try fixture.container.store.write { db in
            try db.execute("DELETE FROM tasks WHERE project_id = 'proj-move'")
            try db.execute("DELETE FROM projects WHERE id = 'proj-move'")
        }
        let runs = try await fixture.engine.reloadTimelines(ofKind: DemoCatalog.Kind.projectProgress)
        #expect(runs.count == 1)
        let state = try await fixture.engine.state(ofInstance: "p")
        #expect(state.currentEntry?.content.objectValue?["projectID"] == .string(ProjectEntity.allProjectsID))
        let finding = try #require(state.diagnostics.first { $0.code == .deletedEntity })
        #expect(finding.message.contains("proj-move"))

        // Placing a new widget on the deleted project resolves to the default as well.
        let late = try await fixture.engine.place(kind: DemoCatalog.Kind.projectProgress, family: .systemSmall,
                                                  parameters: ["project": "proj-move"])
        #expect(late.resolvedParameters["project"] == .string(ProjectEntity.allProjectsID))
        #expect(late.diagnostics.contains { $0.code == .deletedEntity })
    }

    @Test("a missing entity parameter takes the query's defaultResult()")
    func queryDefault() async throws {
        let fixture = try EngineFixture()
        let placed = try await fixture.engine.place(kind: DemoCatalog.Kind.taskList, family: .systemMedium)
        #expect(placed.resolvedParameters == ["project": .string(ProjectEntity.allProjectsID), "showCompleted": false])
        let remaining = placed.currentEntry?.content.objectValue?["remaining"]
        #expect(remaining == .int(12))
    }

    @Test("bad parameter JSON gives an error naming the parameter and what was expected",
          arguments: [
            (["showCompleted": JSONValue.string("yes")], "showCompleted", "expected a boolean, got a string"),
            (["project": JSONValue.bool(true)], "project", "expected an entity id (string), got a boolean"),
            (["projct": JSONValue.string("proj-1")], "projct", "has no parameter"),
          ])
    func badParameters(parameters: [String: JSONValue], name: String, fragment: String) async throws {
        let fixture = try EngineFixture()
        await #expect {
            try await fixture.engine.place(kind: DemoCatalog.Kind.taskList, family: .systemMedium,
                                           parameters: parameters)
        } throws: { error in
            let text = "\(error)"
            return text.contains("'\(name)'") && text.contains(fragment)
        }
        #expect(try await fixture.engine.instances().isEmpty)
    }

    @Test("scalar parameters: defaults, optionals and type checks")
    func scalarParameters() async throws {
        var catalog = WidgetCatalog()
        catalog.register(kind: "Greeting", provider: GreetingProvider())
        let fixture = try EngineFixture(catalog: catalog)
        let defaults = try await fixture.engine.place(kind: "Greeting", family: .systemSmall)
        #expect(defaults.resolvedParameters == ["name": "world", "count": 1, "loud": nil])
        #expect(defaults.currentEntry?.content.objectValue?["label"] == .string("hello world "))
        let loud = try await fixture.engine.place(kind: "Greeting", family: .systemSmall,
                                                  parameters: ["name": "x", "count": 2, "loud": true])
        #expect(loud.currentEntry?.content.objectValue?["label"] == .string("HELLO X HELLO X "))
        await #expect(throws: EngineError.invalidParameter(kind: "Greeting", parameter: "count",
                                                           problem: "expected an integer, got a string")) {
            try await fixture.engine.place(kind: "Greeting", family: .systemSmall, parameters: ["count": "2"])
        }
    }

    @Test("unknown kinds and unsupported families are refused")
    func unknownKindAndFamily() async throws {
        let fixture = try EngineFixture()
        await #expect(throws: EngineError.unknownKind("Nope")) {
            try await fixture.engine.place(kind: "Nope", family: .systemSmall)
        }
        await #expect(throws: EngineError.self) {
            try await fixture.engine.place(kind: DemoCatalog.Kind.daily, family: .accessoryInline)
        }
    }

    @Test("parameter options: suggestions, string search, and no options for scalars")
    func parameterOptions() async throws {
        let fixture = try EngineFixture()
        let suggested = try await fixture.engine.parameterOptions(kind: DemoCatalog.Kind.projectProgress,
                                                                  parameter: "project")
        #expect(suggested.map(\.value) == ["all", "proj-launch", "proj-garden", "proj-thesis", "proj-move"])
        #expect(suggested.first?.title == "All projects")
        let search = try await fixture.engine.parameterOptions(kind: DemoCatalog.Kind.projectProgress,
                                                               parameter: "project", matching: "GARD")
        #expect(search.map(\.title) == ["Garden Redesign"])
        await #expect(throws: EngineError.parameterHasNoOptions(kind: DemoCatalog.Kind.taskList,
                                                                parameter: "showCompleted")) {
            try await fixture.engine.parameterOptions(kind: DemoCatalog.Kind.taskList, parameter: "showCompleted")
        }
    }

    @Test("updating parameters moves the instance to another configuration")
    func updateParameters() async throws {
        let fixture = try EngineFixture()
        try await fixture.engine.place(kind: DemoCatalog.Kind.projectProgress, family: .systemSmall,
                                       parameters: ["project": "proj-launch"], id: "p")
        let updated = try await fixture.engine.update(instanceID: "p", parameters: ["project": "proj-thesis"])
        #expect(updated.currentEntry?.content.objectValue?["projectName"] == .string("Thesis"))
        #expect(updated.currentEntry?.content.objectValue?["progress"] == .double(0.8))
        try await fixture.engine.remove(instanceID: "p")
        await #expect(throws: EngineError.unknownInstance("p")) { try await fixture.engine.state(ofInstance: "p") }
    }
}
