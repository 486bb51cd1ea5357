import AppIntents
import Foundation
import WidgetHost
import WidgetKit

/// The task list's button: marks a task done. Completing a task that is already done changes nothing.
///
/// Writes the `tasks` row and the `lastCompletedTaskID` default in the perform's transaction, and asks for the
/// project-progress widgets to reload (budgeted); the tapped task list reloads anyway (exempt).
public struct CompleteTaskIntent: AppIntent {
    public static let title: LocalizedStringResource = "Complete Task"
    public static let description = IntentDescription("Marks a task as done.")

    /// The task's id, e.g. `task-3`.
    @Parameter(title: "Task ID")
    public var taskId: String

    public init() {}

    /// An intent for one task, as a widget's button builds it.
    public init(taskId: String) {
        self.taskId = taskId
    }

    /// Returns the number of tasks of the project still open.
    public func perform() async throws -> some IntentResult & ReturnsValue<Int> {
        guard let transaction = IntentTransaction.current(forGroup: DemoSchema.appGroup) else {
            throw DemoIntentError.noTransaction
        }
        let change = try transaction.withDatabase { db in
            try DemoRepository.setCompleted(taskID: taskId, true, in: db)
        }
        if change.changed {
            UserDefaults(suiteName: DemoSchema.appGroup)?.set(taskId, forKey: DemoSchema.lastCompletedTaskKey)
            WidgetCenter.shared.reloadTimelines(ofKind: DemoCatalog.Kind.projectProgress)
        }
        return .result(value: change.remainingInProject)
    }
}
