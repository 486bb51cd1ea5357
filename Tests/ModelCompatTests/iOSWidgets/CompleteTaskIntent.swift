// An interactive widget's intent (Button(intent:)): writes App Group state, reloads the widget.
import AppIntents
import Foundation
import WidgetKit

struct CompleteTaskIntent: AppIntent {
    static var title: LocalizedStringResource = "Complete task"
    static var openAppWhenRun: Bool = false

    @Parameter(title: "Task ID")
    var taskID: String

    init() {}

    init(taskID: String) {
        self.taskID = taskID
    }

    func perform() async throws -> some IntentResult {
        let defaults = UserDefaults(suiteName: "group.com.example.tasks")
        var done = defaults?.stringArray(forKey: "completedTaskIDs") ?? []
        if !done.contains(taskID) {
            done.append(taskID)
        }
        defaults?.set(done, forKey: "completedTaskIDs")
        defaults?.set(Date(), forKey: "lastCompletion")
        WidgetCenter.shared.reloadTimelines(ofKind: "TaskList")
        return .result()
    }
}

struct CountCompletedIntent: AppIntent {
    static var title: LocalizedStringResource = "Count completed tasks"
    static var description: IntentDescription = "Says how many tasks are done."

    func perform() async throws -> some IntentResult & ReturnsValue<Int> & ProvidesDialog {
        let count = UserDefaults(suiteName: "group.com.example.tasks")?
            .stringArray(forKey: "completedTaskIDs")?.count ?? 0
        IntentDonationManager.shared.donate(intent: self)
        return .result(value: count, dialog: "\(count) tasks done")
    }
}

struct RenameTaskIntent: AppIntent {
    static var title: LocalizedStringResource = "Rename task"

    @Parameter(title: "Task ID")
    var taskID: String

    @Parameter(title: "New name", requestValueDialog: "What should the task be called?")
    var newName: String?

    func perform() async throws -> some IntentResult {
        guard let newName = newName, !newName.isEmpty else {
            throw $newName.needsValueError()
        }
        UserDefaults(suiteName: "group.com.example.tasks")?.set(newName, forKey: "name.\(taskID)")
        return .result()
    }
}
