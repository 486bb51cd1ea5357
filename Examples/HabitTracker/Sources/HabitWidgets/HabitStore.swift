import Foundation
#if canImport(WidgetHost)
import SharedState
import WidgetHost
#endif

/// The app's `habit_log` table in the App Group's shared database.
///
/// The one file that differs from iOS: there the app would open its own SQLite file under `containerURL`; here the
/// table lives in the container's store, so a perform's log row is part of its transaction and diff.
public enum HabitStore {
    /// The App Group the app and its widget share.
    public static let appGroup = "group.com.example.habits"
    /// The `UserDefaults` key holding the last habit logged.
    public static let lastLoggedKey = "lastLoggedHabit"

    /// The day `date` falls on in `calendar`, as `yyyy-MM-dd`.
    static func day(of date: Date, in calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    #if canImport(WidgetHost)
    /// The app's migrations: the habit log, one row per habit and day.
    public static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration("habits.1-log") { db in
            try db.execute("""
                CREATE TABLE habit_log(habit_id TEXT NOT NULL, day TEXT NOT NULL, PRIMARY KEY (habit_id, day))
                """)
        }
        return migrator
    }

    /// Whether the habit was logged on `day` (read from the committed state; false outside an engine).
    static func isLogged(habitID: String, day: String) throws -> Bool {
        guard let container = HostEnvironment.current?.container(forGroup: appGroup) else { return false }
        return try container.store.read { db in
            try db.scalar("SELECT COUNT(*) FROM habit_log WHERE habit_id = ? AND day = ?", [.text(habitID), .text(day)],
                          as: Int.self) ?? 0 > 0
        }
    }

    /// Logs the habit for `day` inside the perform's transaction; false when it was already logged.
    static func log(habitID: String, day: String) throws -> Bool {
        guard let transaction = IntentTransaction.current(forGroup: appGroup) else {
            throw HabitStoreError.notInAPerform
        }
        return try transaction.withDatabase { db in
            try db.execute("INSERT OR IGNORE INTO habit_log(habit_id, day) VALUES (?, ?)", [.text(habitID), .text(day)])
            return db.changes > 0
        }
    }
    #endif
}

/// The log was written outside an intent's perform (where the engine gives it no transaction).
enum HabitStoreError: Error {
    case notInAPerform
}
