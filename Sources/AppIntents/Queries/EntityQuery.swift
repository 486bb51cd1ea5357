/// Finds entities of one type: by id, as suggestions, and as the default.
///
/// Identifiers that no longer match an entity (a deleted project) must be left out of
/// ``entities(for:)``'s result rather than reported as errors.
///
/// WidgetHost simplification: ``suggestedEntities()`` and `results()` return `[Entity]` (Apple also
/// allows `IntentItemCollection`).
///
/// Mirrors [EntityQuery](https://developer.apple.com/documentation/appintents/entityquery).
public protocol EntityQuery: DynamicOptionsProvider, PersistentlyIdentifiable, Sendable
where Result == [Entity], DefaultValue == Entity {
    /// The type of entity this query finds.
    associatedtype Entity: AppEntity

    /// Creates the query; hosts create queries on demand.
    init()

    /// Returns the entities with the given identifiers, omitting any that no longer exist.
    func entities(for identifiers: [Entity.ID]) async throws -> [Entity]

    /// Returns the entities to offer before people search; empty by default.
    func suggestedEntities() async throws -> [Entity]
}

extension EntityQuery {
    /// No suggestions.
    public func suggestedEntities() async throws -> [Entity] { [] }

    /// The suggested entities.
    public func results() async throws -> [Entity] { try await suggestedEntities() }
}

/// An entity query that can also search by text.
///
/// Mirrors [EntityStringQuery](https://developer.apple.com/documentation/appintents/entitystringquery).
public protocol EntityStringQuery: EntityQuery {
    /// Returns the entities that match what people typed.
    func entities(matching string: String) async throws -> [Entity]
}

/// An entity query over a small set it can list in full.
///
/// ``entities(for:)`` and ``suggestedEntities()`` default to filtering ``allEntities()``.
///
/// Mirrors [EnumerableEntityQuery](https://developer.apple.com/documentation/appintents/enumerableentityquery).
public protocol EnumerableEntityQuery: EntityQuery {
    /// The type of entity this query lists; inferred from ``allEntities()``.
    associatedtype Entity
    /// Returns every entity.
    func allEntities() async throws -> [Entity]
}

extension EnumerableEntityQuery {
    /// Every entity whose id is among `identifiers`, in the order of `identifiers`.
    public func entities(for identifiers: [Entity.ID]) async throws -> [Entity] {
        let all = try await allEntities()
        return identifiers.compactMap { identifier in all.first { $0.id == identifier } }
    }

    /// Every entity.
    public func suggestedEntities() async throws -> [Entity] { try await allEntities() }
}
