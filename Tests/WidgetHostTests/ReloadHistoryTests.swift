import DemoWidgets
import Foundation
import SharedState
import Testing
@testable import WidgetHost

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

    @Test("a reconfigured instance's history starts at its reconfiguration")
    func reconfigured() async throws {
        let fixture = try EngineFixture()
        let engine = fixture.engine
        try await engine.place(kind: "ProjectProgress", family: .systemSmall,
                               parameters: ["project": .string("proj-thesis")], id: "p")
        _ = try await engine.reloadTimelines(ofKind: "ProjectProgress")
        #expect(try await engine.reloads(ofInstance: "p", limit: 50).count == 2)
        try await engine.update(instanceID: "p", parameters: ["project": .string("proj-launch")])
        let history = try await engine.reloads(ofInstance: "p", limit: 50)
        #expect(history.map(\.reason) == [.configurationChanged])
        #expect(history.first?.configurationKey == (try await engine.state(ofInstance: "p")).instance.configurationKey)
    }

    @Test("the history is read through the configuration index, each run's list by its key, not by scanning either")
    func usesTheIndex() throws {
        let fixture = try EngineFixture()
        let plan = try fixture.store.database.read { db in
            try db.query("EXPLAIN QUERY PLAN " + EngineStore.reloadHistorySQL, [.text("k"), .text("a"), .integer(20)])
                .compactMap { $0.string("detail") }
        }
        #expect(plan.contains { $0.contains("SEARCH log USING INDEX reload_log_by_configuration") }, "\(plan)")
        #expect(plan.contains { $0.contains("SEARCH served USING INTEGER PRIMARY KEY") }, "\(plan)")
        #expect(!plan.contains { $0.contains("SCAN log") || $0.contains("SCAN served") || $0.contains("TEMP B-TREE") },
                "\(plan)")
    }
}
