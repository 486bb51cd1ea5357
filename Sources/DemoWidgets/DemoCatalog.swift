import Foundation
import WidgetHost
import WidgetKit

/// The widget kinds the daemon serves by default, over the demo data in `Fixtures/`, and the demo's Live Activity.
public enum DemoCatalog {
    /// Kind strings, as an app would declare them.
    public enum Kind {
        public static let projectProgress = "ProjectProgress"
        public static let daily = "Daily"
        public static let taskList = "TaskList"
    }

    /// The demo catalog: project progress (configurable), daily picture (static), task list (configurable), and
    /// the delivery Live Activity (``DeliveryAttributes``), registered so that pushes to it decode after a restart.
    public static func make() -> WidgetCatalog {
        var catalog = WidgetCatalog()
        catalog.register(kind: Kind.projectProgress, displayName: "Project Progress",
                         description: "How far one project, or all of them, has come.",
                         families: [.systemSmall, .systemMedium, .accessoryCircular, .accessoryRectangular],
                         provider: ProjectProgressProvider())
        catalog.register(kind: Kind.daily, displayName: "Picture of the Day",
                         description: "A new picture every day at midnight.",
                         families: [.systemSmall, .systemMedium, .systemLarge], provider: DailyProvider())
        catalog.register(kind: Kind.taskList, displayName: "Tasks",
                         description: "The open tasks of a project, with a button to complete each.",
                         families: [.systemMedium, .systemLarge, .accessoryRectangular], provider: TaskListProvider())
        catalog.registerActivity(DeliveryAttributes.self)
        return catalog
    }
}
