// A configuration intent with an AppEnum and the other scalar parameter types.
import AppIntents
import Foundation

enum TaskPriority: String, AppEnum {
    case low
    case normal
    case high

    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Priority"
    static var caseDisplayRepresentations: [TaskPriority: DisplayRepresentation] = [
        .low: "Low",
        .normal: DisplayRepresentation(title: "Normal", subtitle: "Everyday tasks"),
        .high: DisplayRepresentation(title: "High", image: .init(systemName: "exclamationmark")),
    ]
}

struct TagOptionsProvider: DynamicOptionsProvider {
    func results() async throws -> [String] {
        ["home", "work", "errands"]
    }

    func defaultResult() async -> String? {
        "home"
    }
}

struct FilterTasksIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Filter tasks"

    @Parameter(title: "Priority", default: .high)
    var priority: TaskPriority

    @Parameter(title: "Limit", description: "How many tasks to show.", default: 5)
    var limit: Int

    @Parameter(title: "Due before")
    var dueBefore: Date?

    @Parameter(title: "Minimum progress", default: 0.5)
    var minimumProgress: Double

    @Parameter(title: "Link")
    var link: URL?

    @Parameter(title: "Tag", optionsProvider: TagOptionsProvider())
    var tag: String?

    @Parameter(title: "Lowest priority")
    var lowestPriority: TaskPriority?

    @Parameter(title: "Show overdue", default: false)
    var showOverdue: Bool

    init() {}
}
