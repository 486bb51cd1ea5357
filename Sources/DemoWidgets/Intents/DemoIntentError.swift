/// Why a demo intent refused to run; nothing was changed.
public enum DemoIntentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No task has this id.
    case unknownTask(String)
    /// No task, project or daily item has this id.
    case unknownItem(String)
    /// The intent ran outside a WidgetHost perform of the demo container, so it has no transaction to write in.
    case noTransaction
    /// Focus mode is off: there is no focus to end.
    case focusNotOn

    /// A plain sentence.
    public var description: String {
        switch self {
        case .unknownTask(let id): "no task with id '\(id)'"
        case .unknownItem(let id): "no task, project or daily item with id '\(id)'"
        case .noTransaction: "the intent must run inside a WidgetHost perform of the demo App Group"
        case .focusNotOn: "focus mode is off: there is no focus to end"
        }
    }
}
