import AppIntents
import Foundation
import Testing

@Suite("Parameter assignment")
struct ParameterAssignmentTests {
    @Test("well-typed values reach the property")
    func assignsTypedValues() throws {
        let intent = FilterTasksIntent()
        let due = Date(timeIntervalSince1970: 1_714_550_400)
        try intent.parameter(named: "priority")?.assign(.enumCase("low"))
        try intent.parameter(named: "limit")?.assign(.int(12))
        try intent.parameter(named: "dueBefore")?.assign(.date(due))
        try intent.parameter(named: "minimumProgress")?.assign(.int(1))
        try intent.parameter(named: "link")?.assign(.string("https://example.com/tasks"))
        try intent.parameter(named: "tag")?.assign(.string("work"))
        try intent.parameter(named: "lowestPriority")?.assign(.string("normal"))
        try intent.parameter(named: "showOverdue")?.assign(.bool(true))

        #expect(intent.priority == .low)
        #expect(intent.limit == 12)
        #expect(intent.dueBefore == due)
        #expect(intent.minimumProgress == 1.0)
        #expect(intent.link == URL(string: "https://example.com/tasks"))
        #expect(intent.tag == "work")
        #expect(intent.lowestPriority == .normal)
        #expect(intent.showOverdue)
    }

    @Test("a date may arrive as ISO 8601 text")
    func isoDates() throws {
        let intent = FilterTasksIntent()
        try intent.parameter(named: "dueBefore")?.assign(.string("2024-05-01T08:00:00Z"))
        #expect(intent.dueBefore == Date(timeIntervalSince1970: 1_714_550_400))
    }

    @Test("null clears optionals; nil resets to the default")
    func nullAndReset() throws {
        let intent = FilterTasksIntent()
        try intent.parameter(named: "tag")?.assign(.string("home"))
        try intent.parameter(named: "tag")?.assign(.null)
        #expect(intent.tag == nil)
        try intent.parameter(named: "limit")?.assign(.int(3))
        try intent.parameter(named: "limit")?.assign(nil)
        #expect(intent.limit == 5)
    }

    @Test(
        "mismatches throw errors naming the parameter, the expected kind and the value",
        arguments: [
            ("limit", IntentParameterValue.string("ten"), "parameter \"Limit\" expects int, got string \"ten\""),
            ("limit", .double(2.5), "parameter \"Limit\" expects int, got double 2.5"),
            ("showOverdue", .int(1), "parameter \"Show overdue\" expects bool, got int 1"),
            ("dueBefore", .bool(true), "parameter \"Due before\" expects date or null, got bool true"),
            ("link", .string("not a url"), "parameter \"Link\" expects url or null, got string \"not a url\""),
            ("showOverdue", .null, "parameter \"Show overdue\" expects bool, got null"),
        ]
    )
    func mismatches(name: String, value: IntentParameterValue, message: String) throws {
        let intent = FilterTasksIntent()
        let parameter = try #require(intent.parameter(named: name))
        let before = parameter.currentValue
        do {
            try parameter.assign(value)
            Issue.record("assigning \(value) to \(name) did not throw")
        } catch {
            #expect(error.description == message)
            #expect(error.got == value)
        }
        #expect(parameter.currentValue == before)
    }

    @Test("an unknown enum raw value is rejected as not a case")
    func notACase() throws {
        let parameter = try #require(FilterTasksIntent().parameter(named: "priority"))
        #expect(throws: ParameterValueError.self) { try parameter.assign(.enumCase("urgent")) }
        do {
            try parameter.assign(.enumCase("urgent"))
        } catch {
            #expect(error.reason == .notACase)
            #expect(error.description.contains("enum TaskPriority (low, normal, high)"))
        }
    }

    @Test("an entity id needs the query; a resolved entity is accepted; another type is not")
    func entityAssignment() async throws {
        let intent = SelectProjectIntent()
        let parameter = try #require(intent.parameter(named: "project"))
        do {
            try parameter.assign(.entity(id: "p2"))
            Issue.record("an entity id was accepted without its query")
        } catch {
            #expect(error.reason == .entityNeedsQuery)
        }

        let query = try #require(parameter.entityQuery())
        let garden = try #require(try await query.entities(forIdentifiers: ["p2"]).first)
        try parameter.assign(entity: garden)
        #expect(intent.project?.name == "Garden")
        #expect(parameter.currentValue == .entity(id: "p2"))

        try parameter.assign(entity: nil)
        #expect(intent.project == nil)

        let notAProject = ResolvedEntity(PlaceEntity(id: 7))
        do {
            try parameter.assign(entity: notAProject)
            Issue.record("an entity of another type was accepted")
        } catch {
            #expect(error.reason == .entityTypeMismatch)
        }
        let limit = try #require(FilterTasksIntent().parameter(named: "limit"))
        #expect(throws: ParameterValueError.self) { try limit.assign(entity: garden) }
    }

    @Test("needsValueError names the parameter and its dialog")
    func needsValue() async throws {
        let intent = RenameTaskIntent()
        intent.taskID = "t1"
        do {
            _ = try await intent.perform()
            Issue.record("perform() without a name did not throw")
        } catch let error as ParameterNeedsValueError {
            #expect(error.parameterTitle == "New name")
            #expect(error.dialog?.full.defaultValue == "What should the task be called?")
        }
    }

    @Test("options providers answer through the parameter")
    func optionsProvider() async throws {
        let tag = try #require(FilterTasksIntent().parameter(named: "tag"))
        #expect(try await tag.dynamicOptions() == [.string("home"), .string("work"), .string("errands")])
        #expect(await tag.dynamicDefault() == .string("home"))
        let limit = try #require(FilterTasksIntent().parameter(named: "limit"))
        #expect(try await limit.dynamicOptions() == nil)
        #expect(limit.entityQuery() == nil)
    }
}

/// An entity of a second type, to check that entity parameters reject other types.
struct PlaceEntity: AppEntity {
    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Place"
    static var defaultQuery = PlaceQuery()
    var id: Int
    var displayRepresentation: DisplayRepresentation { "Place \(id)" }
}

struct PlaceQuery: EnumerableEntityQuery {
    func allEntities() async throws -> [PlaceEntity] {
        [PlaceEntity(id: 7), PlaceEntity(id: 8)]
    }
}
