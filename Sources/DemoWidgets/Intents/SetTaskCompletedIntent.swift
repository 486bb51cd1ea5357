import AppIntents
import Foundation
import WidgetHost
import WidgetKit

/// The task list's toggle (`Toggle(isOn:intent:)`): sets a task done or not done. Setting the state it already
/// has changes nothing.
public struct SetTaskCompletedIntent: AppIntent {
    public static let title: LocalizedStringResource = "Set Task Completed"
    public static let description = IntentDescription("Marks a task as done or not done.")

    /// The task's id, e.g. `task-3`.
    @Parameter(title: "Task ID")
    public var taskId: String

    /// The toggle's new state.
    @Parameter(title: "Completed", default: true)
    public var completed: Bool

    public init() {}

    /// An intent setting one task's state.
    public init(taskId: String, completed: Bool) {
        self.taskId = taskId
        self.completed = completed
    }

    /// Returns the task's state afterwards.
    public func perform() async throws -> some IntentResult & ReturnsValue<Bool> {
        guard let transaction = IntentTransaction.current(forGroup: DemoSchema.appGroup) else {
            throw DemoIntentError.noTransaction
        }
        let change = try transaction.withDatabase { db in
            try DemoRepository.setCompleted(taskID: taskId, completed, in: db)
        }
        if change.changed {
            if completed {
                UserDefaults(suiteName: DemoSchema.appGroup)?.set(taskId, forKey: DemoSchema.lastCompletedTaskKey)
            }
            WidgetCenter.shared.reloadTimelines(ofKind: DemoCatalog.Kind.projectProgress)
        }
        return .result(value: completed)
    }
}
