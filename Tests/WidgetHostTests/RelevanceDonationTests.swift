import AppIntents
import Foundation
import Testing
import WidgetHost
import WidgetKit

/// A static provider that donates the greeting "carol" every time it builds a timeline.
struct DonatingProvider: TimelineProvider, Sendable {
    func placeholder(in context: Context) -> CountEntry { CountEntry(date: .distantPast, label: "placeholder") }

    func getSnapshot(in context: Context, completion: @escaping (CountEntry) -> Void) {
        completion(CountEntry(date: .distantPast, label: "snapshot"))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<CountEntry>) -> Void) {
        IntentDonationManager.shared.donate(intent: RelevanceDonationTests.greeting("carol"))
        completion(Timeline(entries: [CountEntry(date: HostEnvironment.current?.now ?? Date(), label: "x")],
                            policy: .never))
    }
}

@Suite("Donations and relevant date contexts in Smart Stack ranking")
struct RelevanceDonationTests {
    static func greeting(_ name: String) -> GreetingIntent {
        let intent = GreetingIntent()
        intent.name = name
        return intent
    }

    /// Greeting widgets for alice, bob and carol, stacked in that order.
    static func greetings() async throws -> RelevanceFixture {
        let setup = try RelevanceFixture([:])
        for name in ["alice", "bob", "carol"] {
            try await setup.engine.place(kind: "Greeting", family: .systemMedium, parameters: ["name": .string(name)],
                                         id: name)
        }
        try await setup.engine.createStack("s", instanceIDs: ["alice", "bob", "carol"])
        return setup
    }

    @Test("IntentDonationManager.shared.donate(intent:) inside engine-run code lands in the store and ranks")
    func donationsFromEngineRunCode() async throws {
        let setup = try await Self.greetings()
        let engine = setup.engine
        try await engine.runAppCode {
            for _ in 0..<3 { IntentDonationManager.shared.donate(intent: Self.greeting("bob")) }
            Self.greeting("alice").donate()
        }
        let stored = try await engine.donations()
        #expect(stored.count == 4)
        #expect(stored.allSatisfy { $0.intentType == "GreetingIntent" && $0.donatedAt == setup.start })
        #expect(stored.filter { $0.parameters["name"] == .string("bob") }.count == 3)

        let ranking = try await engine.rankStack("s", at: setup.start)
        #expect(ranking.top == "bob")
        #expect(ranking.instance("bob")?.parts.donationCount == 3)
        #expect(ranking.instance("bob")?.parts.donation == 0.75, "three fresh donations saturate to 3 / 4")
        #expect(ranking.instance("alice")?.parts.donation == 0.5)
        #expect(ranking.instance("carol")?.parts.donation == 0)

        // A day later (one donation half-life) each counts half.
        let later = try await engine.rankStack("s", at: setup.at(24 * 3600))
        #expect(later.instance("alice")?.parts.donation == 0.5 / 1.5)
    }

    @Test("a provider's donations are stored too, and a failed call's are dropped")
    func donationsFromProviders() async throws {
        let setup = try RelevanceFixture([:])
        var catalog = WidgetCatalog()
        catalog.register(kind: "Donor", displayName: "Donor", provider: DonatingProvider())
        let engine = WidgetEngine(catalog: catalog, store: setup.fixture.store, clock: setup.fixture.clock)
        try await engine.place(kind: "Donor", family: .systemSmall, id: "donor")
        #expect(try await engine.donations().map { $0.parameters["name"] } == [.string("carol")])
        struct Failure: Error {}
        _ = try? await engine.runAppCode {
            IntentDonationManager.shared.donate(intent: Self.greeting("dave"))
            throw Failure()
        }
        #expect(try await engine.donations().count == 1)
    }

    @Test("relevant date contexts: inside a window, around an exact date, replaced and cleared")
    func relevantDateContexts() async throws {
        let setup = try await Self.greetings()
        let engine = setup.engine
        let start = setup.start
        try await engine.runAppCode {
            try await RelevantIntentManager.shared.updateRelevantIntents([
                RelevantIntent(Self.greeting("carol"), widgetKind: "Greeting",
                               relevance: .date(from: start.addingTimeInterval(3600), to: start.addingTimeInterval(7200))),
                RelevantIntent(Self.greeting("bob"), widgetKind: "Greeting",
                               relevance: .date(start.addingTimeInterval(4 * 3600))),
                RelevantIntent(Self.greeting("alice"), widgetKind: "Other", relevance: .date(from: start, to: .distantFuture)),
            ])
        }
        #expect(try await engine.relevantIntents().count == 3)
        var ranking = try await engine.rankStack("s", at: start)
        #expect(ranking.instances.allSatisfy { $0.parts.context == 0 }, "alice's context names another kind")
        ranking = try await engine.rankStack("s", at: setup.at(5400))
        #expect(ranking.instance("carol")?.parts.context == 1 && ranking.top == "carol")
        #expect(ranking.instance("carol")?.total == RankingPolicy.default.contextWeight)
        ranking = try await engine.rankStack("s", at: setup.at(7200))
        #expect(ranking.instance("carol")?.parts.context == 0, "the window's end is exclusive")
        ranking = try await engine.rankStack("s", at: setup.at(4 * 3600 - 1800))
        #expect(ranking.instance("bob")?.parts.context == 0.5, "half an hour from an exact date: half relevant")

        try await engine.runAppCode { try await RelevantIntentManager.shared.updateRelevantIntents([]) }
        #expect(try await engine.relevantIntents().isEmpty)
    }
}
