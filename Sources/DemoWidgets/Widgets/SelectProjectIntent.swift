import AppIntents
import Foundation

/// The project-progress widget's configuration: which project to show.
public struct SelectProjectIntent: WidgetConfigurationIntent {
    public static let title: LocalizedStringResource = "Select project"
    public static let description = IntentDescription("Shows how far a project has come.")

    /// The project; missing or deleted resolves to "All projects".
    @Parameter(title: "Project")
    public var project: ProjectEntity?

    public init() {}
}

/// The task-list widget's configuration.
public struct TaskListIntent: WidgetConfigurationIntent {
    public static let title: LocalizedStringResource = "Task list"
    public static let description = IntentDescription("Lists the tasks of a project.")

    /// The project; missing resolves to "All projects".
    @Parameter(title: "Project")
    public var project: ProjectEntity?

    /// Whether completed tasks are listed too.
    @Parameter(title: "Show completed", default: false)
    public var showCompleted: Bool

    public init() {}
}
