/// A value from the app's domain (a project, a task list) that intents take as a parameter.
///
/// Widget configurations store only the entity's ``id`` (as its `entityIdentifierString`), so the id
/// must be unique and persistent; hosts turn ids back into entities through ``defaultQuery``.
///
/// Mirrors [AppEntity](https://developer.apple.com/documentation/appintents/appentity).
public protocol AppEntity: _IntentValue, Identifiable, Sendable
where ID: EntityIdentifierConvertible & Sendable, UnwrappedType == Self {
    /// The query that finds entities of this type.
    associatedtype DefaultQuery: EntityQuery where DefaultQuery.Entity == Self

    /// The name of the type as shown to people, for example "Project".
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }

    /// How this entity is shown to people.
    var displayRepresentation: DisplayRepresentation { get }

    /// The query hosts use to look entities up by id, list suggestions and search.
    static var defaultQuery: DefaultQuery { get }
}
