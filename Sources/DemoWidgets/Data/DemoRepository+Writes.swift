import Foundation
import SharedState

/// The demo app's writes, on a connection the caller holds inside its transaction (an interactive intent's
/// `IntentTransaction`, or `container.store.write`).
extension DemoRepository {
    /// What setting a task's completion did.
    public struct CompletionChange: Sendable, Equatable {
        /// False when the task already had that state: nothing was written.
        public var changed: Bool
        /// The task's project.
        public var projectId: String
        /// Tasks of that project still open afterwards.
        public var remainingInProject: Int
    }

    /// Sets a task's completion. Setting the state it already has writes nothing, so completing twice is one
    /// completion.
    /// - Throws: ``DemoIntentError/unknownTask(_:)``, or `SQLiteError`.
    public static func setCompleted(taskID: String, _ completed: Bool, in db: Database) throws -> CompletionChange {
        guard let projectId = try db.scalar("SELECT project_id FROM tasks WHERE id = ?", [.text(taskID)],
                                            as: String.self) else {
            throw DemoIntentError.unknownTask(taskID)
        }
        try db.execute("UPDATE tasks SET completed = ? WHERE id = ? AND completed <> ?",
                       [.integer(completed ? 1 : 0), .text(taskID), .integer(completed ? 1 : 0)])
        let changed = db.changes > 0
        let remaining = try db.scalar("SELECT COUNT(*) FROM tasks WHERE project_id = ? AND completed = 0",
                                      [.text(projectId)], as: Int.self) ?? 0
        return CompletionChange(changed: changed, projectId: projectId, remainingInProject: remaining)
    }

    /// Adds an item to the favourites, or removes it when it is one already.
    /// - Parameters:
    ///   - itemID: A task id, a project id, or `daily-yyyy-MM-dd` for a daily item (as in `favorites.json`).
    ///   - date: When it is favourited.
    /// - Returns: Whether the item is a favourite afterwards.
    /// - Throws: ``DemoIntentError/unknownItem(_:)``, or `SQLiteError`.
    public static func toggleFavorite(itemID: String, at date: Date, in db: Database) throws -> Bool {
        try db.execute("DELETE FROM favorites WHERE item_id = ?", [.text(itemID)])
        if db.changes > 0 { return false }
        let kind: String
        if try db.queryOne("SELECT 1 FROM tasks WHERE id = ?", [.text(itemID)]) != nil {
            kind = "task"
        } else if try db.queryOne("SELECT 1 FROM projects WHERE id = ?", [.text(itemID)]) != nil {
            kind = "project"
        } else if itemID.hasPrefix("daily-"),
                  try db.queryOne("SELECT 1 FROM daily_items WHERE day = ?", [.text(String(itemID.dropFirst(6)))]) != nil {
            kind = "daily"
        } else {
            throw DemoIntentError.unknownItem(itemID)
        }
        try db.execute("INSERT INTO favorites(item_id, kind, added_at) VALUES (?, ?, ?)",
                       [.text(itemID), .text(kind), date.sqlValue])
        return true
    }
}
