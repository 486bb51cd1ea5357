import Foundation
@testable import SharedState
import Testing
@testable import WidgetHost
import WidgetKit

/// A database made before the schedule and budget moved to configurations, opened by today's engine.
@Suite("Migration of per-instance schedules and budgets to configurations")
struct ConfigurationScheduleMigrationTests {
    /// Every engine migration before the one under test: the schema databases had until then.
    static var oldMigrator: Migrator {
        EngineSchemaBefore.migrator(without: [ConfigurationScheduleSchema.migrationName])
    }

    @Test("schedules and charges are carried over, instances and timelines kept, the old columns gone")
    func migratesAnOldDatabase() async throws {
        let directory = try EngineSchemaBefore.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("widgethost.sqlite").path
        let now = EngineFixture.date("2026-11-25T10:00:00Z")
        let t = now.timeIntervalSince1970
        let ann = #"["Greeting","systemSmall",{"count":1,"name":"ann"}]"#
        let bob = #"["Greeting","systemSmall",{"count":1,"name":"bob"}]"#
        do {
            let old = try DatabaseStore(path: path)
            try Self.oldMigrator.migrate(old)
            try old.write { db in
                for (key, name) in [(ann, "ann"), (bob, "bob")] {
                    try db.execute("""
                        INSERT INTO configurations(key, kind, family, parameters, provider_runs)
                        VALUES (?, 'Greeting', 'systemSmall', ?, 3)
                        """, [.text(key), .text(#"{"count":1,"name":"\#(name)"}"#)])
                }
                // a and b hold ann: a scheduled later, b deferred by its budget earlier; their charges overlap.
                let rows: [(String, String, SQLValue, SQLValue, Int, String)] = [
                    ("a", ann, .real(t + 600), .text("scheduled"), 0, "[\(t - 1200),\(t - 600)]"),
                    ("b", ann, .real(t + 300), .text("kind-reload"), 1, "[\(t - 600),\(t - 60)]"),
                    ("c", bob, .null, .null, 0, "[]"),
                ]
                for (id, key, due, reason, deferred, charges) in rows {
                    try db.execute("""
                        INSERT INTO widget_instances(id, kind, family, raw_parameters, configuration_key, placed_at,
                            updated_at, next_reload_at, next_reload_reason, deferred, charges)
                        VALUES (?, 'Greeting', 'systemSmall', ?, ?, ?, ?, ?, ?, ?, ?)
                        """, [.text(id), .text(#"{"name":"\#(key == ann ? "ann" : "bob")"}"#), .text(key),
                              .real(t - 3000), .real(t - 3000), due, reason, .integer(Int64(deferred)),
                              .text(charges)])
                }
            }
        }

        var catalog = WidgetCatalog()
        catalog.register(kind: "Greeting", provider: GreetingProvider())
        let store = try EngineStore(directory: directory)
        #expect(try Migrator.appliedMigrations(in: store.database).last == ConfigurationScheduleSchema.migrationName)
        let engine = WidgetEngine(catalog: catalog, store: store, clock: VirtualClock(start: now),
                                  budget: ReloadBudgetPolicy(reloadsPerWindow: 3, window: 3600))
        #expect(try await engine.instances().map(\.id).sorted() == ["a", "b", "c"])
        for id in ["a", "b"] {
            let state = try await engine.state(ofInstance: id)
            #expect(state.nextReload == ScheduledReload(dueAt: now.addingTimeInterval(300), reason: .kindReload,
                                                       deferredByBudget: true), "the earliest of the instances'")
            #expect(state.budget.used == 3, "the union of the instances' charges: t-1200, t-600, t-60")
            #expect(state.providerRuns == 3 && state.instance.rawParameters == ["name": "ann"])
        }
        let c = try await engine.state(ofInstance: "c")
        #expect(c.nextReload == nil && c.budget.used == 0)
        let columns = try store.database.read { db in
            try db.query("SELECT name FROM pragma_table_info('widget_instances')").compactMap { $0.string("name") }
        }
        #expect(Set(columns).isDisjoint(with: ["next_reload_at", "next_reload_reason", "deferred", "charges"]))

        // The migrated schedule runs: b's deferred reload is due in 5 minutes; the ledger still has no room then
        // (t-1200 leaves the window at t+2400), so it is deferred again to that time.
        _ = try await engine.advanceClock(by: 300)
        #expect(try await engine.state(ofInstance: "a").nextReload?.dueAt == now.addingTimeInterval(2400))
        let runs = try await engine.advanceClock(by: 2100)
        #expect(runs.map(\.instanceIDs) == [["a", "b"]] && runs.map(\.reason) == [.kindReload])
    }
}
