import Foundation
import SharedState
import Testing
import WidgetHost
import WidgetKit

/// Instances sharing a configuration share its schedule and its budget: one row per configuration, whatever the
/// number of instances, and every reader (state, doctor, history, upcoming reloads) answers for each instance.
@Suite("Schedule and budget shared by the instances of a configuration")
struct SharedConfigurationBudgetTests {
    static func fixture(reloadsPerWindow: Int = 2) throws -> (EngineFixture, GreetingProvider) {
        let provider = GreetingProvider()
        var catalog = WidgetCatalog()
        catalog.register(kind: "Greeting", provider: provider)
        let budget = ReloadBudgetPolicy(reloadsPerWindow: reloadsPerWindow, window: 3600)
        return (try EngineFixture(catalog: catalog, budget: budget), provider)
    }

    /// Places `a` and `b` with equal parameters (one configuration) and spends two budgeted reloads on it.
    static func twoInstancesChargedTwice() async throws -> (EngineFixture, GreetingProvider) {
        let (fixture, provider) = try fixture()
        try await fixture.engine.place(kind: "Greeting", family: .systemSmall, parameters: ["name": "ann"], id: "a")
        try await fixture.engine.place(kind: "Greeting", family: .systemSmall, parameters: ["name": "ann"], id: "b")
        for _ in 0..<2 {
            let runs = try await fixture.engine.reloadTimelines(ofKind: "Greeting")
            #expect(runs.map(\.instanceIDs) == [["a", "b"]] && runs.map(\.chargedInstanceIDs) == [["a", "b"]])
            try await fixture.engine.advanceClock(by: 60)
        }
        return (fixture, provider)
    }

    static func rowCounts(_ fixture: EngineFixture) throws -> (configurations: Int, scheduled: Int) {
        try fixture.store.database.read { db in
            (try db.scalar("SELECT count(*) FROM configurations", as: Int.self) ?? -1,
             try db.scalar("SELECT count(*) FROM configurations WHERE next_reload_at IS NOT NULL", as: Int.self) ?? -1)
        }
    }

    @Test("two instances of one configuration: one charge counts for both, and both are deferred together")
    func twoInstancesShareTheBudget() async throws {
        let (fixture, provider) = try await Self.twoInstancesChargedTwice()
        let engine = fixture.engine
        #expect(provider.counter.value == 3)
        let a = try await engine.state(ofInstance: "a")
        let b = try await engine.state(ofInstance: "b")
        #expect(a.budget.used == 2 && a.budget.remaining == 0)
        #expect(a.budget == b.budget && a.nextReload == b.nextReload)
        #expect(try Self.rowCounts(fixture) == (1, 1), "one schedule row for the configuration, not one per instance")

        let deferred = try await engine.reload(instanceID: "b", reason: .kindReload)
        #expect(deferred == nil && provider.counter.value == 3)
        for id in ["a", "b"] {
            let state = try await engine.state(ofInstance: id)
            #expect(state.nextReload?.deferredByBudget == true && state.nextReload?.reason == .kindReload)
            #expect(state.diagnostics.contains { $0.code == .budgetExhausted })
        }
        let upcoming = try await engine.upcomingReloads(through: .distantFuture)
        #expect(upcoming.map(\.instanceID) == ["a", "b"])
        #expect(Set(upcoming.map(\.reload)).count == 1)

        // An exempt reload (the tapped widget) still runs, charges nobody, and leaves the budget as it was.
        let tapped = try #require(try await engine.reload(instanceID: "a", reason: .interactiveIntent))
        #expect(tapped.instanceIDs == ["a", "b"] && tapped.chargedInstanceIDs.isEmpty)
        #expect(try await engine.state(ofInstance: "b").budget.used == 2)
    }

    @Test("removing one of two instances leaves the other's schedule, budget and history as they were")
    func removingOneInstance() async throws {
        let (fixture, _) = try await Self.twoInstancesChargedTwice()
        let engine = fixture.engine
        let before = try await engine.state(ofInstance: "b")
        let history = try await engine.reloads(ofInstance: "b", limit: 10)
        try await engine.remove(instanceID: "a")
        let after = try await engine.state(ofInstance: "b")
        #expect(after.budget == before.budget && after.nextReload == before.nextReload)
        #expect(after.budget.used == 2)
        #expect(try await engine.reloads(ofInstance: "b", limit: 10) == history)
        #expect(try await engine.upcomingReloads(through: .distantFuture).map(\.instanceID) == ["b"])
        let run = try await engine.reloadAllTimelines()
        #expect(run.isEmpty, "the budget b shared with a is still spent")
        #expect(try await engine.state(ofInstance: "b").nextReload?.deferredByBudget == true)

        try await engine.remove(instanceID: "b")
        #expect(try Self.rowCounts(fixture) == (0, 0), "the configuration goes with its last instance")
        #expect(try await engine.upcomingReloads(through: .distantFuture).isEmpty)
    }

    @Test("an instance reconfigured away from a shared configuration starts a budget of its own")
    func reconfiguredInstance() async throws {
        let (fixture, provider) = try await Self.twoInstancesChargedTwice()
        let engine = fixture.engine
        let kept = try await engine.state(ofInstance: "a")
        let moved = try await engine.update(instanceID: "b", parameters: ["name": "bob"])
        #expect(moved.instance.configurationKey != kept.instance.configurationKey)
        #expect(moved.budget.used == 0, "the new configuration's first run is exempt and its ledger is its own")
        #expect(moved.nextReload?.dueAt == fixture.clock.now.addingTimeInterval(3600))
        let a = try await engine.state(ofInstance: "a")
        #expect(a.budget == kept.budget && a.nextReload == kept.nextReload)
        #expect(try Self.rowCounts(fixture) == (2, 2))

        // The old configuration is out of budget, the new one is not: one run, for b alone.
        let runs = try await engine.reloadTimelines(ofKind: "Greeting")
        #expect(runs.map(\.instanceIDs) == [["b"]] && runs.map(\.chargedInstanceIDs) == [["b"]])
        #expect(provider.counter.value == 5)
        #expect(try await engine.state(ofInstance: "a").nextReload?.deferredByBudget == true)
        #expect(try await engine.state(ofInstance: "b").budget.used == 1)
        #expect(try await engine.reloads(ofInstance: "b", limit: 10).map(\.reason) == [.kindReload,
                                                                                      .configurationChanged])

        // Moving back joins the configuration a holds, with its schedule and its spent budget.
        let back = try await engine.update(instanceID: "b", parameters: ["name": "ann"])
        #expect(back.budget == (try await engine.state(ofInstance: "a")).budget)
        #expect(back.nextReload?.deferredByBudget == true)
        #expect(try Self.rowCounts(fixture) == (1, 1))
    }

    @Test("the budget's window frees both instances of a configuration at once")
    func windowFreesBoth() async throws {
        let (fixture, provider) = try await Self.twoInstancesChargedTwice()
        let engine = fixture.engine
        _ = try await engine.reloadAllTimelines()
        let until = try #require(try await engine.state(ofInstance: "a").nextReload)
        #expect(until.deferredByBudget)
        let runs = try await engine.advanceClock(to: until.dueAt)
        #expect(runs.map(\.reason) == [.allReload] && runs.map(\.chargedInstanceIDs) == [["a", "b"]])
        #expect(provider.counter.value == 4)
        for id in ["a", "b"] {
            let state = try await engine.state(ofInstance: id)
            #expect(state.budget.used == 2, "the first charge left the window as the new one came in")
            #expect(state.nextReload?.deferredByBudget == false && state.nextReload?.reason == .scheduled)
        }
    }
}
