import AppIntents
import Foundation
import SharedState
import WidgetHost
import WidgetHostTesting
import WidgetKit

/// Intents and a harness for the runner's own tests: a counter that must never lose an update, and intents that
/// fail after writing.
enum IntentTestSupport {
    static let group = "group.widgethost.intent-tests"

    static var intents: IntentCatalog {
        var intents = IntentCatalog()
        intents.register(CountIntent.self)
        intents.register(FailAfterWritingIntent.self)
        intents.register(WriteOtherGroupIntent.self)
        return intents
    }

    /// A harness over an empty catalog and a container with the `count_log` table.
    static func makeHarness(synchronous: DatabaseStore.Synchronous = .full,
                            storage: WidgetHarness.Storage = .temporaryDirectory) throws -> WidgetHarness {
        try WidgetHarness(catalog: WidgetCatalog(), intents: intents, appGroup: group, storage: storage,
                          synchronous: synchronous) { container in
            var migrator = Migrator()
            migrator.registerMigration("IntentTests.1-count-log") { db in
                try db.execute("CREATE TABLE count_log(id INTEGER PRIMARY KEY, counter TEXT NOT NULL, amount INTEGER NOT NULL)")
            }
            try migrator.migrate(container.store)
        }
    }

    /// The value of a counter key, 0 when missing.
    static func counter(_ harness: WidgetHarness, _ name: String) throws -> Int {
        if case .integer(let value)? = try harness.defaultsValue(forKey: "count.\(name)") { return value }
        return 0
    }

    /// Rows in `count_log`, per counter.
    static func logRows(_ harness: WidgetHarness) throws -> [String: Int] {
        try harness.read { db in
            var rows: [String: Int] = [:]
            for row in try db.query("SELECT counter, COUNT(*) AS n FROM count_log GROUP BY counter") {
                rows[row.string("counter") ?? ""] = row.int("n") ?? 0
            }
            return rows
        }
    }
}

/// Adds `amount` to the default `count.<counter>` (read-modify-write through `UserDefaults`) and to the shared
/// `count.all`, and logs a row: a lost update or a double application shows.
struct CountIntent: AppIntent {
    static let title: LocalizedStringResource = "Count"

    @Parameter(title: "Counter")
    var counter: String

    @Parameter(title: "Amount", default: 1)
    var amount: Int

    func perform() async throws -> some IntentResult & ReturnsValue<Int> {
        let defaults = UserDefaults(suiteName: IntentTestSupport.group)
        let value = (defaults?.integer(forKey: "count.\(counter)") ?? 0) + amount
        defaults?.set(value, forKey: "count.\(counter)")
        await Task.yield()
        defaults?.set((defaults?.integer(forKey: "count.all") ?? 0) + amount, forKey: "count.all")
        try IntentTransaction.current?.withDatabase { db in
            try db.execute("INSERT INTO count_log(counter, amount) VALUES (?, ?)", [.text(counter), .integer(Int64(amount))])
        }
        WidgetCenter.shared.reloadTimelines(ofKind: "Counter")
        return .result(value: value)
    }
}

/// Writes a key and a row, asks for a reload, then throws.
struct FailAfterWritingIntent: AppIntent {
    static let title: LocalizedStringResource = "Fail after writing"

    struct Refused: Error, CustomStringConvertible {
        var description: String { "refused on purpose" }
    }

    @Parameter(title: "Counter", default: "failing")
    var counter: String

    func perform() async throws -> some IntentResult {
        UserDefaults(suiteName: IntentTestSupport.group)?.set(99, forKey: "count.\(counter)")
        try IntentTransaction.current?.withDatabase { db in
            try db.execute("INSERT INTO count_log(counter, amount) VALUES (?, 99)", [.text(counter)])
        }
        WidgetCenter.shared.reloadAllTimelines()
        await Task.yield()
        guard counter.isEmpty else { throw Refused() }
        return .result()
    }
}

/// Writes to an App Group other than the perform's.
struct WriteOtherGroupIntent: AppIntent {
    static let title: LocalizedStringResource = "Write another group"

    func perform() async throws -> some IntentResult {
        UserDefaults(suiteName: IntentTestSupport.group)?.set(1, forKey: "count.mine")
        UserDefaults(suiteName: "group.widgethost.intent-tests.other")?.set(1, forKey: "elsewhere")
        return .result()
    }
}
