import Foundation
import Testing
import WidgetHost

@Suite("Entry relevance semantics in Smart Stack ranking")
struct RelevanceSemanticsTests {
    @Test("a score of 0 or less never rotates to the top, however many taps it has")
    func nonPositiveNeverTops() async throws {
        let setup = try RelevanceFixture(["Alpha": [.init(offset: 0, score: -5)], "Beta": [.init(offset: 0, score: 0)],
                                          "Gamma": [.init(offset: 0, score: nil)]])
        try await setup.stack(["Alpha", "Beta", "Gamma"])
        let taps = try TapStore(engineStore: setup.fixture.store, routes: .load(directory: defaultRoutesDirectory))
        try taps.record(batch: (0..<20).map { _ in
            Tap(url: "myapp://task/task-1", instanceID: "alpha", source: .widgetURL, date: setup.at(-60))
        })
        let ranking = try await setup.engine.rankStack("s", at: setup.start)
        #expect(ranking.instances.first { $0.total > 0 }?.instanceID == "alpha", "alpha has the highest total")
        #expect(ranking.instance("alpha")?.eligible == false)
        #expect(ranking.instance("beta")?.eligible == false)
        #expect(ranking.top == "gamma")
        #expect(ranking.instances.first?.instanceID == "gamma")
        #expect(ranking.instance("alpha")?.parts.entry.score == -5)
        #expect(ranking.instance("alpha")?.parts.entryNormalised == 0)
        #expect(ranking.instance("alpha")?.parts.tapCount == 20)
    }

    @Test("an entry with nil relevance keeps the previous one, within and across timelines")
    func nilKeepsPrevious() async throws {
        let setup = try RelevanceFixture(["Alpha": [.init(offset: 0, score: 50), .init(offset: 3600, score: nil),
                                                    .init(offset: 7200, score: nil)]])
        try await setup.stack(["Alpha"])
        var ranking = try await setup.engine.rankStack("s", at: setup.at(5400))
        var entry = try #require(ranking.instance("alpha")?.parts.entry)
        #expect(entry.score == 50 && entry.state == .active && entry.setAt == setup.start)

        // A new timeline whose entries have no relevance: the previous timeline's relevance carries over.
        setup.scripts["Alpha"]?.set([.init(offset: 0, score: nil), .init(offset: 1800, score: nil)])
        try await setup.engine.setClock(to: setup.at(6000))
        try await setup.engine.reloadTimelines(ofKind: "Alpha")
        ranking = try await setup.engine.rankStack("s", at: setup.at(7000))
        entry = try #require(ranking.instance("alpha")?.parts.entry)
        #expect(entry.score == 50 && entry.state == .carriedOver)
        #expect(ranking.instance("alpha")?.parts.entryNormalised == 1)

        // A later score of 0 removes it.
        setup.scripts["Alpha"]?.set([.init(offset: 0, score: 0)])
        try await setup.engine.reloadTimelines(ofKind: "Alpha")
        ranking = try await setup.engine.rankStack("s", at: setup.at(7000))
        #expect(ranking.instance("alpha")?.parts.entry.score == 0)
        #expect(ranking.instance("alpha")?.eligible == false)
    }

    @Test("relevance applies from its entry's date for its duration; 0 means until the next relevance")
    func durationWindows() async throws {
        let setup = try RelevanceFixture([
            "Alpha": [.init(offset: 0, score: 80, duration: 1800)],
            "Beta": [.init(offset: 0, score: 10), .init(offset: 3600, score: 20)],
        ])
        try await setup.stack(["Alpha", "Beta"])
        let engine = setup.engine
        var alpha = try #require(try await engine.rankStack("s", at: setup.at(600)).instance("alpha"))
        #expect(alpha.parts.entry.state == .active && alpha.parts.entryNormalised == 1)
        #expect(alpha.parts.entry.validUntil == setup.at(1800))
        alpha = try #require(try await engine.rankStack("s", at: setup.at(1800)).instance("alpha"))
        #expect(alpha.parts.entry.state == .expired && alpha.parts.entry.score == nil)
        #expect(alpha.parts.entryNormalised == 0 && alpha.eligible)

        var beta = try #require(try await engine.rankStack("s", at: setup.at(3000)).instance("beta"))
        #expect(beta.parts.entry.score == 10 && beta.parts.entryNormalised == 0.5)
        beta = try #require(try await engine.rankStack("s", at: setup.at(3600)).instance("beta"))
        #expect(beta.parts.entry.score == 20 && beta.parts.entryNormalised == 1)
        // Before the first entry's date, the timeline gives no relevance.
        beta = try #require(try await engine.rankStack("s", at: setup.at(-60)).instance("beta"))
        #expect(beta.parts.entry.state == .none)
    }

    @Test("scores are normalised per widget kind over its own scale")
    func scalesNormalisedPerKind() async throws {
        let setup = try RelevanceFixture([
            "Alpha": [.init(offset: 0, score: 5), .init(offset: 3600, score: 10)],
            "Beta": [.init(offset: 0, score: 400), .init(offset: 3600, score: 1000)],
        ])
        try await setup.stack(["Beta", "Alpha"])
        let ranking = try await setup.engine.rankStack("s", at: setup.start)
        let alpha = try #require(ranking.instance("alpha"))
        let beta = try #require(ranking.instance("beta"))
        #expect(alpha.parts.entryScale == 10 && alpha.parts.entryNormalised == 0.5)
        #expect(beta.parts.entryScale == 1000 && abs(beta.parts.entryNormalised - 0.4) < 1e-9)
        #expect(ranking.top == "alpha", "5 of 10 beats 400 of 1000")
        #expect(ranking.instances.map(\.instanceID) == ["alpha", "beta"])
    }
}
