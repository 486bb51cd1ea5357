import DemoWidgets
import Foundation
import SharedState
import Testing
import WidgetHost
import WidgetKit

@Suite("Reload scheduler and budget")
struct SchedulerTests {
    static func catalog(_ provider: ScriptedProvider, kind: String = "Scripted") -> WidgetCatalog {
        var catalog = WidgetCatalog()
        catalog.register(kind: kind, displayName: "Scripted", provider: provider)
        return catalog
    }

    @Test("an exhausted budget defers reloads, and they resume when the window allows")
    func budgetDefersAndResumes() async throws {
        let provider = ScriptedProvider(offsets: [0], policy: { _ in .never })
        let budget = ReloadBudgetPolicy(reloadsPerWindow: 3, window: 3600)
        let fixture = try EngineFixture(catalog: Self.catalog(provider), budget: budget)
        try await fixture.engine.place(kind: "Scripted", family: .systemSmall, id: "w")
        #expect(provider.counter.value == 1)  // placement is exempt

        var chargedAt: [Date] = []
        for _ in 0..<3 {
            let runs = try await fixture.engine.reloadTimelines(ofKind: "Scripted")
            #expect(runs.count == 1)
            chargedAt.append(fixture.clock.now)
            try await fixture.engine.advanceClock(by: 60)
        }
        #expect(provider.counter.value == 4)
        let deferred = try await fixture.engine.reloadTimelines(ofKind: "Scripted")
        #expect(deferred.isEmpty)
        #expect(provider.counter.value == 4)

        let state = try await fixture.engine.state(ofInstance: "w")
        #expect(state.budget.remaining == 0)
        #expect(state.nextReload?.deferredByBudget == true)
        #expect(state.nextReload?.reason == .kindReload)
        #expect(state.nextReload?.dueAt == chargedAt[0].addingTimeInterval(3600))
        #expect(state.diagnostics.contains { $0.code == .budgetExhausted })

        // Just before the first charge leaves the window: still deferred. Then it runs, once.
        let early = try await fixture.engine.advanceClock(to: chargedAt[0].addingTimeInterval(3599))
        #expect(early.isEmpty)
        let resumed = try await fixture.engine.advanceClock(to: chargedAt[0].addingTimeInterval(3601))
        #expect(resumed.count == 1)
        #expect(resumed.first?.reason == .kindReload)
        #expect(resumed.first?.chargedInstanceIDs == ["w"])
        #expect(provider.counter.value == 5)
        let after = try await fixture.engine.state(ofInstance: "w")
        #expect(after.nextReload == nil)  // .never: nothing more scheduled
        #expect(!after.diagnostics.contains { $0.code == .budgetExhausted })
    }

    @Test("interactive-intent and app-foreground reloads are not charged")
    func exemptReloads() async throws {
        let provider = ScriptedProvider(offsets: [0], policy: { _ in .never })
        let fixture = try EngineFixture(catalog: Self.catalog(provider),
                                        budget: ReloadBudgetPolicy(reloadsPerWindow: 1, window: 3600))
        try await fixture.engine.place(kind: "Scripted", family: .systemSmall, id: "w")
        for reason in [ReloadReason.interactiveIntent, .appForeground, .interactiveIntent] {
            let record = try await fixture.engine.reload(instanceID: "w", reason: reason)
            #expect(record?.chargedInstanceIDs == [])
        }
        #expect(try await fixture.engine.state(ofInstance: "w").budget.remaining == 1)
        #expect(provider.counter.value == 4)
    }

    @Test("3 instances with 2 distinct configurations cause exactly 2 provider runs")
    func sharedConfigurations() async throws {
        let provider = GreetingProvider()
        var catalog = WidgetCatalog()
        catalog.register(kind: "Greeting", provider: provider)
        let fixture = try EngineFixture(catalog: catalog)
        let first = try await fixture.engine.place(kind: "Greeting", family: .systemSmall, parameters: ["name": "ann"])
        let second = try await fixture.engine.place(kind: "Greeting", family: .systemSmall,
                                                    parameters: ["name": "ann", "count": 1])
        let third = try await fixture.engine.place(kind: "Greeting", family: .systemSmall, parameters: ["name": "bob"])
        #expect(provider.counter.value == 2)
        #expect(first.instance.configurationKey == second.instance.configurationKey)
        #expect(first.instance.configurationKey != third.instance.configurationKey)
        #expect(try await fixture.engine.state(ofInstance: second.instance.id).providerRuns == 1)

        // A kind reload runs each configuration once, not each instance.
        let runs = try await fixture.engine.reloadTimelines(ofKind: "Greeting")
        #expect(runs.count == 2)
        #expect(provider.counter.value == 4)
        #expect(runs.flatMap(\.chargedInstanceIDs).count == 3)
    }

    @Test("due reloads run in time order and come from the schedule index")
    func dueReloadsInOrder() async throws {
        var catalog = WidgetCatalog()
        catalog.register(kind: "Greeting", provider: GreetingProvider())
        let fixture = try EngineFixture(catalog: catalog)
        var keys: [String] = []
        for index in 0..<5 {
            let placed = try await fixture.engine.place(kind: "Greeting", family: .systemSmall,
                                                        parameters: ["name": .string("n\(index)")], id: "w\(index)")
            keys.append(placed.instance.configurationKey)
            try await fixture.engine.advanceClock(by: 60)
        }
        // Distinct configurations placed a minute apart are due a minute apart; one advance runs them in order.
        let runs = try await fixture.engine.advanceClock(by: 3600)
        #expect(runs.map(\.configurationKey) == keys)
        #expect(runs.map(\.ranAt) == runs.map(\.ranAt).sorted())
        #expect(Set(runs.map(\.ranAt)).count == 5)

        let plan = try fixture.store.database.read { db in
            try db.query("EXPLAIN QUERY PLAN SELECT key FROM configurations WHERE next_reload_at IS NOT NULL "
                         + "AND next_reload_at <= ? ORDER BY next_reload_at, key LIMIT 10", [.real(0)])
                .compactMap { $0.string("detail") }.joined(separator: "; ")
        }
        #expect(plan.contains("configurations_due"), "plan was: \(plan)")
        #expect(!plan.contains("TEMP B-TREE"), "the due query must read the index in order, not sort: \(plan)")
    }

    @Test("scheduled reloads are spaced at least the minimum interval apart")
    func minimumInterval() async throws {
        let provider = ScriptedProvider(offsets: [0], policy: { _ in .atEnd })
        let fixture = try EngineFixture(catalog: Self.catalog(provider))
        let placed = try await fixture.engine.place(kind: "Scripted", family: .systemSmall, id: "w")
        #expect(placed.nextReload?.dueAt == fixture.clock.now.addingTimeInterval(WidgetEngine.minimumReloadInterval))
        #expect(placed.diagnostics.contains { $0.code == .singleEntryAtEnd })
        let runs = try await fixture.engine.advanceClock(by: 3600)
        #expect(runs.count == 12)
    }
}
