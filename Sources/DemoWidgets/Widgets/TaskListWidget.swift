import AppIntents
import Foundation
import WidgetKit

/// What the task-list widget shows.
public struct TaskListEntry: TimelineEntry, Codable, Sendable {
    public var date: Date
    public var projectName: String
    /// The tasks listed, in fixture order.
    public var tasks: [DemoRepository.TaskRow]
    /// Tasks not yet completed.
    public var remaining: Int
}

/// The task-list widget: one entry now, rebuilt hourly; interactive intents (complete a task) reload it at once.
public struct TaskListProvider: AppIntentTimelineProvider, Sendable {
    public init() {}

    public func placeholder(in context: Context) -> TaskListEntry {
        TaskListEntry(date: DemoEnvironment.now, projectName: "All projects", tasks: [], remaining: 0)
    }

    public func snapshot(for configuration: TaskListIntent, in context: Context) async -> TaskListEntry {
        entry(for: configuration, at: DemoEnvironment.now, family: context.family)
    }

    public func timeline(for configuration: TaskListIntent, in context: Context) async -> Timeline<TaskListEntry> {
        let now = DemoEnvironment.now
        return Timeline(entries: [entry(for: configuration, at: now, family: context.family)],
                        policy: .after(now.addingTimeInterval(60 * 60)))
    }

    private func entry(for configuration: TaskListIntent, at date: Date, family: WidgetFamily) -> TaskListEntry {
        let project = configuration.project ?? .all
        let projectID = project.id == ProjectEntity.allProjectsID ? nil : project.id
        let all = (try? DemoEnvironment.repository?.tasks(projectID: projectID, includeCompleted: true)) ?? []
        let listed = configuration.showCompleted ? all : all.filter { !$0.completed }
        return TaskListEntry(date: date, projectName: project.name, tasks: Array(listed.prefix(Self.rows(family))),
                             remaining: all.filter { !$0.completed }.count)
    }

    /// How many rows fit the family.
    private static func rows(_ family: WidgetFamily) -> Int {
        switch family {
        case .systemSmall, .accessoryRectangular: 3
        case .systemMedium: 4
        default: 8
        }
    }
}
