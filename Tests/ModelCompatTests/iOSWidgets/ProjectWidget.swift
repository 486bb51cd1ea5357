// iOS-style widget code, written as it would be for an iOS widget extension (minus the SwiftUI
// views) and compiled here unchanged in Swift 5 language mode.
import AppIntents
import WidgetKit

struct ProjectEntity: AppEntity {
    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Project"
    static var defaultQuery = ProjectQuery()

    var id: String
    var name: String
    var progress: Double

    var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: "\(name)", subtitle: "\(Int(progress * 100))% done")
    }
}

enum ProjectCatalog {
    static let all: [ProjectEntity] = [
        ProjectEntity(id: "p1", name: "Groceries", progress: 0.25),
        ProjectEntity(id: "p2", name: "Garden", progress: 0.5),
        ProjectEntity(id: "p3", name: "Tax return", progress: 1.0),
    ]
}

struct ProjectQuery: EntityStringQuery {
    func entities(for identifiers: [ProjectEntity.ID]) async throws -> [ProjectEntity] {
        ProjectCatalog.all.filter { identifiers.contains($0.id) }
    }

    func entities(matching string: String) async throws -> [ProjectEntity] {
        ProjectCatalog.all.filter { $0.name.localizedCaseInsensitiveContains(string) }
    }

    func suggestedEntities() async throws -> [ProjectEntity] {
        ProjectCatalog.all
    }

    func defaultResult() async -> ProjectEntity? {
        ProjectCatalog.all.first
    }
}

struct SelectProjectIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Select project"
    static var description = IntentDescription("Shows a project's progress.")

    @Parameter(title: "Project")
    var project: ProjectEntity?

    @Parameter(title: "Show completed", default: true)
    var showCompleted: Bool

    init() {}
}

struct ProjectEntry: TimelineEntry {
    let date: Date
    let projectName: String
    let progress: Double
    let showCompleted: Bool
}

struct ProjectProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> ProjectEntry {
        ProjectEntry(date: Date(), projectName: "Project", progress: 0.5, showCompleted: true)
    }

    func snapshot(for configuration: SelectProjectIntent, in context: Context) async -> ProjectEntry {
        ProjectEntry(
            date: Date(),
            projectName: configuration.project?.name ?? "All projects",
            progress: configuration.project?.progress ?? 0,
            showCompleted: configuration.showCompleted
        )
    }

    func timeline(for configuration: SelectProjectIntent, in context: Context) async -> Timeline<ProjectEntry> {
        let entry = await snapshot(for: configuration, in: context)
        let nextHour = Calendar.current.date(byAdding: .hour, value: 1, to: entry.date)!
        return Timeline(entries: [entry], policy: .after(nextHour))
    }

    func recommendations() -> [AppIntentRecommendation<SelectProjectIntent>] {
        let intent = SelectProjectIntent()
        intent.showCompleted = false
        return [AppIntentRecommendation(intent: intent, description: "Open projects")]
    }
}
