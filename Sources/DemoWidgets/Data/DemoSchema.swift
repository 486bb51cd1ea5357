import SharedState

/// The tables the demo app keeps in its App Group container, as an iOS app would in its shared database.
public enum DemoSchema {
    /// The App Group the demo widgets and intents share.
    public static let appGroup = "group.com.example.widgethost.demo"

    /// The App Group default the completing intents set to the id of the task they completed.
    public static let lastCompletedTaskKey = "lastCompletedTaskID"

    /// Migrations creating the demo tables; names are prefixed so they never collide with the engine's.
    public static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration("DemoWidgets.1-create-tables") { db in
            try db.execute("""
                CREATE TABLE projects(
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    sort_order INTEGER NOT NULL)
                """)
            try db.execute("""
                CREATE TABLE tasks(
                    id TEXT PRIMARY KEY NOT NULL,
                    title TEXT NOT NULL,
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    completed INTEGER NOT NULL CHECK (completed IN (0, 1)),
                    sort_order INTEGER NOT NULL)
                """)
            try db.execute("CREATE INDEX tasks_by_project ON tasks(project_id, sort_order)")
            try db.execute("""
                CREATE TABLE daily_items(
                    day TEXT PRIMARY KEY NOT NULL,
                    title TEXT NOT NULL,
                    image_name TEXT NOT NULL)
                """)
            try db.execute("""
                CREATE TABLE favorites(
                    item_id TEXT PRIMARY KEY NOT NULL,
                    kind TEXT NOT NULL,
                    added_at REAL NOT NULL)
                """)
        }
        return migrator
    }
}
