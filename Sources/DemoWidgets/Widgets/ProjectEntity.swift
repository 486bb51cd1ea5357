import AppIntents
import Foundation

/// A project the project-progress widget can show, or "All projects".
public struct ProjectEntity: AppEntity {
    /// The id of the pseudo-project that stands for every project: the widget's default.
    public static let allProjectsID = "all"

    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Project"
    public static let defaultQuery = ProjectQuery()

    /// A project id from the fixtures, or ``allProjectsID``.
    public var id: String
    /// Display name.
    public var name: String

    public var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(name)") }

    /// Creates an entity.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// The "All projects" entity.
    public static let all = ProjectEntity(id: allProjectsID, name: "All projects")
}

/// Finds projects in the demo container for the widget editor and for resolving stored configurations.
public struct ProjectQuery: EntityStringQuery {
    public init() {}

    /// Projects with these ids; ids that no longer exist are omitted, as `EntityQuery` requires.
    public func entities(for identifiers: [String]) async throws -> [ProjectEntity] {
        let projects = try DemoEnvironment.repository?.projects(ids: identifiers) ?? []
        return identifiers.compactMap { id in
            id == ProjectEntity.allProjectsID
                ? .all
                : projects.first { $0.id == id }.map { ProjectEntity(id: $0.id, name: $0.name) }
        }
    }

    /// "All projects" first, then every project.
    public func suggestedEntities() async throws -> [ProjectEntity] {
        let projects = try DemoEnvironment.repository?.allProjects() ?? []
        return [.all] + projects.map { ProjectEntity(id: $0.id, name: $0.name) }
    }

    /// Projects whose name contains `string`.
    public func entities(matching string: String) async throws -> [ProjectEntity] {
        try (DemoEnvironment.repository?.projects(matching: string) ?? []).map { ProjectEntity(id: $0.id, name: $0.name) }
    }

    /// "All projects".
    public func defaultResult() async -> ProjectEntity? { .all }
}
