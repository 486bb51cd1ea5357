/// An entity a query returned, with the strings hosts show and store.
public struct ResolvedEntity: Sendable, CustomStringConvertible {
    /// The entity's id as its `entityIdentifierString`: what configurations store.
    public let id: String
    /// The entity's `displayRepresentation` title.
    public let title: String
    /// The entity's `displayRepresentation` subtitle, if any.
    public let subtitle: String?
    /// The entity's Swift type name, for example `"ProjectEntity"`.
    public let typeName: String
    /// The entity itself.
    public let entity: any AppEntity

    /// Describes an entity.
    public init<Entity: AppEntity>(_ entity: Entity) {
        let representation = entity.displayRepresentation
        self.id = entity.id.entityIdentifierString
        self.title = representation.title.defaultValue
        self.subtitle = representation.subtitle?.defaultValue
        self.typeName = String(describing: Entity.self)
        self.entity = entity
    }

    /// Describes an entity whose type is not known statically.
    public init(any entity: any AppEntity) {
        self.init(entity)
    }

    /// `ProjectEntity "p1" (Groceries)`.
    public var description: String { "\(typeName) \"\(id)\" (\(title))" }
}
