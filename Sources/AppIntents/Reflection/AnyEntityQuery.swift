/// An entity query with its types erased, so hosts can look entities up by id string, list
/// suggestions and search without knowing the entity type.
public protocol AnyEntityQuery: Sendable {
    /// The Swift type name of the entities this query finds.
    var entityTypeName: String { get }

    /// Returns the entities with the given ids, omitting ids that do not parse or no longer exist.
    func entities(forIdentifiers identifiers: [String]) async throws -> [ResolvedEntity]

    /// Returns the query's suggested entities.
    func suggestedEntities() async throws -> [ResolvedEntity]

    /// Returns the entities matching `string`, or `nil` when the query is not an
    /// `EntityStringQuery` and cannot search.
    func entities(matching string: String) async throws -> [ResolvedEntity]?

    /// Returns the query's `defaultResult()`.
    func defaultResult() async -> ResolvedEntity?
}

extension EntityQuery {
    /// This query with its types erased.
    public func eraseToAnyEntityQuery() -> any AnyEntityQuery {
        EntityQueryBox(query: self)
    }
}

/// The type-erasing box behind ``EntityQuery/eraseToAnyEntityQuery()``.
struct EntityQueryBox<Query: EntityQuery>: AnyEntityQuery {
    let query: Query

    var entityTypeName: String { String(describing: Query.Entity.self) }

    func entities(forIdentifiers identifiers: [String]) async throws -> [ResolvedEntity] {
        let parsed = identifiers.compactMap { Query.Entity.ID.entityIdentifier(for: $0) }
        if parsed.isEmpty { return [] }
        return try await query.entities(for: parsed).map(ResolvedEntity.init)
    }

    func suggestedEntities() async throws -> [ResolvedEntity] {
        try await query.suggestedEntities().map(ResolvedEntity.init)
    }

    func entities(matching string: String) async throws -> [ResolvedEntity]? {
        guard let searchable = query as? any EntityStringQuery else { return nil }
        return try await Self.search(searchable, for: string)
    }

    func defaultResult() async -> ResolvedEntity? {
        await query.defaultResult().map(ResolvedEntity.init)
    }

    private static func search<Searchable: EntityStringQuery>(
        _ query: Searchable,
        for string: String
    ) async throws -> [ResolvedEntity] {
        try await query.entities(matching: string).map(ResolvedEntity.init)
    }
}
