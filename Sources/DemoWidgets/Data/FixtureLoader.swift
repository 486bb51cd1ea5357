import Foundation
import SharedState

/// Loads ``Fixtures`` into the demo App Group container.
public enum FixtureLoader {
    /// What a load wrote.
    public struct Counts: Sendable, Equatable, CustomStringConvertible {
        /// Rows in each table after the load.
        public var projects, tasks, dailyItems, favorites: Int

        /// One line per table.
        public var description: String {
            "projects: \(projects)\ntasks: \(tasks)\ndaily items: \(dailyItems)\nfavorites: \(favorites)"
        }
    }

    /// Creates the demo tables if needed and replaces their contents with `fixtures`, in one transaction.
    /// - Parameters:
    ///   - fixtures: The decoded fixture files.
    ///   - container: The demo App Group container.
    /// - Returns: The row counts after the load.
    /// - Throws: `SQLiteError` (nothing is changed then).
    @discardableResult
    public static func load(_ fixtures: Fixtures, into container: AppGroupContainer) throws -> Counts {
        try DemoSchema.migrator.migrate(container.store)
        return try container.store.write { db in
            for table in ["favorites", "tasks", "projects", "daily_items"] {
                try db.execute("DELETE FROM \(table)")
            }
            for (order, project) in fixtures.projects.enumerated() {
                try db.execute("INSERT INTO projects(id, name, sort_order) VALUES (?, ?, ?)",
                               [.text(project.id), .text(project.name), .integer(Int64(order))])
            }
            for (order, task) in fixtures.tasks.enumerated() {
                try db.execute(
                    "INSERT INTO tasks(id, title, project_id, completed, sort_order) VALUES (?, ?, ?, ?, ?)",
                    [.text(task.id), .text(task.title), .text(task.projectId),
                     .integer(task.completed ? 1 : 0), .integer(Int64(order))])
            }
            for item in fixtures.daily {
                try db.execute("INSERT INTO daily_items(day, title, image_name) VALUES (?, ?, ?)",
                               [.text(item.day), .text(item.title), .text(item.imageName)])
            }
            for favorite in fixtures.favorites {
                try db.execute("INSERT INTO favorites(item_id, kind, added_at) VALUES (?, ?, ?)",
                               [.text(favorite.itemID), .text(favorite.kind), favorite.addedAt.sqlValue])
            }
            return try counts(db)
        }
    }

    /// True when the container has no demo data yet (a fresh container).
    public static func isEmpty(_ container: AppGroupContainer) throws -> Bool {
        try DemoSchema.migrator.migrate(container.store)
        return try container.store.read { db in
            try db.scalar("SELECT COUNT(*) FROM projects", as: Int.self) == 0
        }
    }

    /// The row counts of the demo tables.
    public static func counts(in container: AppGroupContainer) throws -> Counts {
        try container.store.read(counts)
    }

    private static func counts(_ db: Database) throws -> Counts {
        func count(_ table: String) throws -> Int {
            try db.scalar("SELECT COUNT(*) FROM \(table)", as: Int.self) ?? 0
        }
        return Counts(projects: try count("projects"), tasks: try count("tasks"),
                      dailyItems: try count("daily_items"), favorites: try count("favorites"))
    }
}
