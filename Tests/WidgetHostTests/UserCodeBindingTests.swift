import DemoWidgets
import Foundation
import HostBridge
import Testing
import WidgetHost
import WidgetKit

/// A provider written as iOS code is: it reads the App Group through `UserDefaults(suiteName:)` and asks
/// `WidgetCenter.shared` to reload another kind.
struct GreetingFromDefaultsProvider: TimelineProvider, Sendable {
    func placeholder(in context: Context) -> CountEntry { CountEntry(date: .distantPast, label: "") }
    func getSnapshot(in context: Context, completion: @escaping (CountEntry) -> Void) {
        completion(placeholder(in: context))
    }
    func getTimeline(in context: Context, completion: @escaping (Timeline<CountEntry>) -> Void) {
        let defaults = UserDefaults(suiteName: DemoSchema.appGroup)
        let greeting = defaults?.string(forKey: "greeting") ?? "none"
        defaults?.set((defaults?.integer(forKey: "runs") ?? 0) + 1, forKey: "runs")
        WidgetCenter.shared.reloadTimelines(ofKind: "Other")
        let now = HostEnvironment.current?.now ?? Date()
        completion(Timeline(entries: [CountEntry(date: now, label: greeting)], policy: .never))
    }
}

@Suite("User code reaches the engine that runs it")
struct UserCodeBindingTests {
    @Test("UserDefaults(suiteName:) reads and writes the engine's container; WidgetCenter reloads are scheduled")
    func bindings() async throws {
        var catalog = WidgetCatalog()
        catalog.register(kind: "Greeting", displayName: "Greeting", provider: GreetingFromDefaultsProvider())
        let other = ScriptedProvider(offsets: [0], policy: { _ in .never })
        catalog.register(kind: "Other", displayName: "Other", provider: other)
        let fixture = try EngineFixture(catalog: catalog)
        fixture.container.suite().set("hello from the app", forKey: "greeting")
        try await fixture.engine.place(kind: "Other", family: .systemSmall, id: "o")
        #expect(other.counter.value == 1)

        let placed = try await fixture.engine.place(kind: "Greeting", family: .systemSmall, id: "g")
        #expect(placed.currentEntry?.content.objectValue?["label"] == .string("hello from the app"))
        #expect(fixture.container.suite().integer(forKey: "runs") == 1)

        // The provider's reloadTimelines(ofKind: "Other") made "Other" due now, charged when it runs.
        let due = try await fixture.engine.upcomingReloads(through: fixture.clock.now)
        #expect(due.map(\.instanceID) == ["o"])
        #expect(due.first?.reload.reason == .kindReload)
        let runs = try await fixture.engine.runDueReloads()
        #expect(runs.map(\.chargedInstanceIDs) == [["o"]])
        #expect(other.counter.value == 2)
    }

    @Test("two engines in one process keep their own containers")
    func enginesAreIsolated() async throws {
        var catalog = WidgetCatalog()
        catalog.register(kind: "Greeting", displayName: "Greeting", provider: GreetingFromDefaultsProvider())
        let first = try EngineFixture(catalog: catalog)
        let second = try EngineFixture(catalog: catalog)
        first.container.suite().set("first", forKey: "greeting")
        second.container.suite().set("second", forKey: "greeting")
        async let a = first.engine.place(kind: "Greeting", family: .systemSmall)
        async let b = second.engine.place(kind: "Greeting", family: .systemSmall)
        let (stateA, stateB) = try await (a, b)
        #expect(stateA.currentEntry?.content.objectValue?["label"] == .string("first"))
        #expect(stateB.currentEntry?.content.objectValue?["label"] == .string("second"))
    }
}
