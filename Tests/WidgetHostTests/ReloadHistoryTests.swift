import DemoWidgets
import Foundation
import SharedState
import Testing
import WidgetHost

@Suite("An instance's reload history")
struct ReloadHistoryTests {
    @Test("each run is in the history of every instance it served, newest first, and of no other")
    func sharedConfiguration() async throws {
        let fixture = try EngineFixture()
        let engine = fixture.engine
        try await engine.place(kind: "Daily", family: .systemSmall, id: "a")
        try await engine.place(kind: "Daily", family: .systemSmall, id: "b")   // the same configuration as a
        try await engine.place(kind: "Daily", family: .systemMedium, id: "c")
        _ = try await engine.reloadTimelines(ofKind: "Daily")
        try await engine.advanceClock(by: 86400)

        let a = try await engine.reloads(ofInstance: "a", limit: 50)
        let b = try await engine.reloads(ofInstance: "b", limit: 50)
        let c = try await engine.reloads(ofInstance: "c", limit: 50)
        #expect(a.map(\.reason) == [.scheduled, .kindReload, .configurationChanged])
        #expect(a.allSatisfy { $0.instanceIDs.contains("a") })
        // b joined a's configuration when placed: it shares every run from then on, none from before.
        #expect(b.map(\.reason) == [.scheduled, .kindReload])
        #expect(Array(a.prefix(2)) == b)
        #expect(c.map(\.reason) == [.scheduled, .kindReload, .configurationChanged])
        #expect(Set(c.map(\.configurationKey)).isDisjoint(with: a.map(\.configurationKey)))
        #expect(a.map(\.ranAt) == a.map(\.ranAt).sorted(by: >))
        #expect(try await engine.reloads(ofInstance: "a", limit: 1) == [a[0]])
        await #expect(throws: EngineError.self) { try await engine.reloads(ofInstance: "nope", limit: 5) }
    }

    @Test("an id removed and placed again starts with an empty history")
    func placedAgain() async throws {
        let fixture = try EngineFixture()
        let engine = fixture.engine
        try await engine.place(kind: "Daily", family: .systemSmall, id: "a")
        _ = try await engine.reloadTimelines(ofKind: "Daily")
        try await engine.remove(instanceID: "a")
        try await engine.place(kind: "Daily", family: .systemMedium, id: "a")
        let history = try await engine.reloads(ofInstance: "a", limit: 50)
        #expect(history.map(\.reason) == [.configurationChanged])
        #expect(history.first?.configurationKey == (try await engine.state(ofInstance: "a")).instance.configurationKey)
    }

    @Test("a database logged before the history's index gets it on opening, for the instances still placed")
    func backfilled() async throws {
        let fixture = try EngineFixture()
        try await fixture.engine.place(kind: "Daily", family: .systemSmall, id: "a")
        try await fixture.engine.place(kind: "Daily", family: .systemMedium, id: "gone")
        _ = try await fixture.engine.reloadTimelines(ofKind: "Daily")
        try await fixture.engine.advanceClock(by: 86400)
        let before = try await fixture.engine.reloads(ofInstance: "a", limit: 50)
        #expect(before.count == 3)
        // The log as an engine before the index left it: `gone` was removed from the table, not from the log.
        try fixture.store.database.write { db in
            try db.execute("DELETE FROM widget_instances WHERE id = 'gone'")
            try db.execute("DROP TABLE reload_log_instances")
            try db.execute("DELETE FROM \(Migrator.tableName) WHERE name = 'WidgetHost.reload-log.1-by-instance'")
        }
        let reopened = try fixture.reopened()
        #expect(try await reopened.engine.reloads(ofInstance: "a", limit: 50) == before)
        let rows = try reopened.store.database.read { db in
            try db.query("SELECT instance_id FROM reload_log_instances", []).compactMap { $0.string("instance_id") }
        }
        #expect(Set(rows) == ["a"])
        #expect(rows.count == 3)
    }
}
