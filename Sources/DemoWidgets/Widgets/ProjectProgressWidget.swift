import AppIntents
import Foundation
import WidgetKit

/// What the project-progress widget shows.
public struct ProjectProgressEntry: TimelineEntry, Codable, Sendable {
    public var date: Date
    /// The project's id, or `all`.
    public var projectID: String
    /// The project's name.
    public var projectName: String
    /// Completed / all tasks.
    public var completed: Int
    public var total: Int
    /// Completed / total, 0 to 1.
    public var progress: Double
    /// Nearly done projects are more relevant in a Smart Stack.
    public var relevance: TimelineEntryRelevance? {
        TimelineEntryRelevance(score: Float(progress * 100))
    }
}

/// The project-progress widget: one entry now, rebuilt every 30 minutes (what the default budget sustains) and
/// whenever a task changes (interactive intents reload it).
public struct ProjectProgressProvider: AppIntentTimelineProvider, Sendable {
    public init() {}

    public func placeholder(in context: Context) -> ProjectProgressEntry {
        ProjectProgressEntry(date: DemoEnvironment.now, projectID: ProjectEntity.allProjectsID,
                             projectName: "All projects", completed: 3, total: 5, progress: 0.6)
    }

    public func snapshot(for configuration: SelectProjectIntent, in context: Context) async -> ProjectProgressEntry {
        entry(for: configuration.project ?? .all, at: DemoEnvironment.now)
    }

    public func timeline(for configuration: SelectProjectIntent, in context: Context)
        async -> Timeline<ProjectProgressEntry> {
        let now = DemoEnvironment.now
        return Timeline(entries: [entry(for: configuration.project ?? .all, at: now)],
                        policy: .after(now.addingTimeInterval(30 * 60)))
    }

    private func entry(for project: ProjectEntity, at date: Date) -> ProjectProgressEntry {
        let projects = (try? DemoEnvironment.repository?.allProjects()) ?? []
        let shown = project.id == ProjectEntity.allProjectsID ? projects : projects.filter { $0.id == project.id }
        let completed = shown.reduce(0) { $0 + $1.completedCount }
        let total = shown.reduce(0) { $0 + $1.taskCount }
        return ProjectProgressEntry(date: date, projectID: project.id, projectName: project.name,
                                    completed: completed, total: total,
                                    progress: total == 0 ? 0 : Double(completed) / Double(total))
    }
}
