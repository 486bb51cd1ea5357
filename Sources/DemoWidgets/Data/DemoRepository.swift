import Foundation
import SharedState

/// Reads and changes the demo app's data in its App Group container.
///
/// This is the code an iOS app and its widget extension would share; the demo widgets, their entity queries and
/// the demo intents all go through it.
public struct DemoRepository: Sendable {
    /// A project with its progress computed from its tasks.
    public struct ProjectSummary: Sendable, Equatable, Codable {
        /// Stable id.
        public var id: String
        /// Display name.
        public var name: String
        /// Completed tasks / all tasks, 0 when the project has none.
        public var progress: Double
        /// All tasks.
        public var taskCount: Int
        /// Completed tasks.
        public var completedCount: Int
    }

    /// A task row.
    public struct TaskRow: Sendable, Equatable, Codable {
        /// Stable id.
        public var id: String
        /// Display title.
        public var title: String
        /// The owning project's id.
        public var projectId: String
        /// Whether it is done.
        public var completed: Bool
    }

    /// The picture of one day.
    public struct DailyRow: Sendable, Equatable, Codable {
        /// `yyyy-MM-dd`.
        public var day: String
        /// Caption.
        public var title: String
        /// Image asset name.
        public var imageName: String
    }

    /// The container the data lives in.
    public let container: AppGroupContainer

    /// Wraps `container`, creating the demo tables if they are missing.
    public init(container: AppGroupContainer) throws {
        try DemoSchema.migrator.migrate(container.store)
        self.container = container
    }

    /// Wraps a container whose demo tables were created already, writing nothing.
    ///
    /// Widgets and queries use this: they only read, and migrating takes the container's writer, which an
    /// interactive intent may be holding at that moment.
    init(migratedContainer container: AppGroupContainer) {
        self.container = container
    }

    private static let projectSummarySQL = """
        SELECT p.id, p.name, COUNT(t.id) AS task_count, COALESCE(SUM(t.completed), 0) AS completed_count
        FROM projects p LEFT JOIN tasks t ON t.project_id = p.id
        """

    /// Projects with these ids, in the order given; unknown ids are omitted (as `EntityQuery` requires).
    public func projects(ids: [String]) throws -> [ProjectSummary] {
        let all = try allProjects()
        let byID = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
        return ids.compactMap { byID[$0] }
    }

    /// All projects in fixture order.
    public func allProjects() throws -> [ProjectSummary] {
        try container.store.read { db in
            try db.query(Self.projectSummarySQL + " GROUP BY p.id ORDER BY p.sort_order").map(Self.summary)
        }
    }

    /// Projects whose name contains `text`, case-insensitively.
    public func projects(matching text: String) throws -> [ProjectSummary] {
        let needle = text.lowercased()
        return try allProjects().filter { $0.name.lowercased().contains(needle) }
    }

    /// Tasks of one project, or of all projects, in fixture order.
    /// - Parameters:
    ///   - projectID: A project id, or nil for every project.
    ///   - includeCompleted: False to leave completed tasks out.
    public func tasks(projectID: String?, includeCompleted: Bool) throws -> [TaskRow] {
        var sql = "SELECT id, title, project_id, completed FROM tasks WHERE 1 = 1"
        var arguments: [SQLValue] = []
        if let projectID {
            sql += " AND project_id = ?"
            arguments.append(.text(projectID))
        }
        if !includeCompleted { sql += " AND completed = 0" }
        sql += " ORDER BY sort_order"
        return try container.store.read { db in
            try db.query(sql, arguments).map { row in
                TaskRow(id: row.string("id") ?? "", title: row.string("title") ?? "",
                        projectId: row.string("project_id") ?? "", completed: row.bool("completed") ?? false)
            }
        }
    }

    /// The item of `day` (`yyyy-MM-dd`); days outside the fixture range cycle through the items, so the widget
    /// always has something to show.
    public func dailyItem(day: String) throws -> DailyRow? {
        try container.store.read { db in
            let row = try db.queryOne("SELECT day, title, image_name FROM daily_items WHERE day = ?", [.text(day)])
                ?? db.queryOne("""
                    SELECT day, title, image_name FROM daily_items ORDER BY day
                    LIMIT 1 OFFSET (abs(julianday(?) - julianday('2000-01-01')) % (SELECT COUNT(*) FROM daily_items))
                    """, [.text(day)])
            return row.map { DailyRow(day: day, title: $0.string("title") ?? "", imageName: $0.string("image_name") ?? "") }
        }
    }

    private static func summary(_ row: Row) -> ProjectSummary {
        let total = row.int("task_count") ?? 0
        let done = row.int("completed_count") ?? 0
        return ProjectSummary(id: row.string("id") ?? "", name: row.string("name") ?? "",
                              progress: total == 0 ? 0 : Double(done) / Double(total),
                              taskCount: total, completedCount: done)
    }
}
