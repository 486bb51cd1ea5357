import AppIntents
import Testing

@Suite("Type-erased entity queries")
struct EntityQueryBoxTests {
    private func projectQuery() throws -> any AnyEntityQuery {
        try #require(SelectProjectIntent().parameter(named: "project")?.entityQuery())
    }

    @Test("look-up by id string keeps found entities and omits unknown ids")
    func lookUpByID() async throws {
        let query = try projectQuery()
        #expect(query.entityTypeName == "ProjectEntity")
        let found = try await query.entities(forIdentifiers: ["p3", "deleted", "p1"])
        #expect(Set(found.map(\.id)) == ["p1", "p3"])
        let taxes = try #require(found.first { $0.id == "p3" })
        #expect(taxes.title == "Tax return")
        #expect(taxes.subtitle == "100% done")
        #expect(taxes.typeName == "ProjectEntity")
        #expect((taxes.entity as? ProjectEntity)?.progress == 1.0)
        #expect(try await query.entities(forIdentifiers: []).isEmpty)
    }

    @Test("suggestions, string search and the default result")
    func suggestionsSearchDefault() async throws {
        let query = try projectQuery()
        #expect(try await query.suggestedEntities().map(\.id) == ["p1", "p2", "p3"])
        #expect(try await query.entities(matching: "gar")?.map(\.title) == ["Garden"])
        #expect(try await query.entities(matching: "zzz")?.isEmpty == true)
        #expect(await query.defaultResult()?.id == "p1")
    }

    @Test("a query that is not an EntityStringQuery cannot search")
    func noSearch() async throws {
        let query = PlaceQuery().eraseToAnyEntityQuery()
        #expect(try await query.entities(matching: "7") == nil)
        #expect(try await query.suggestedEntities().map(\.id) == ["7", "8"])
        #expect(await query.defaultResult() == nil)
    }

    @Test("integer ids convert through entityIdentifierString; unparsable ids are skipped")
    func integerIDs() async throws {
        let query = PlaceQuery().eraseToAnyEntityQuery()
        #expect(try await query.entities(forIdentifiers: ["8", "x", "99"]).map(\.id) == ["8"])
        #expect(Int(entityIdentifierString: "42") == 42)
        #expect(Int.entityIdentifier(for: "4x") == nil)
        #expect(42.entityIdentifierString == "42")
    }
}
