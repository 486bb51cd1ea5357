import Foundation
import Testing
import WidgetHost

@Suite("Smart Stack rotation: rate limit, hysteresis, persistence, tie-breaks")
struct StackRotationTests {
    /// Alpha fades (10, 5, 1), Beta rises (4, 6, 9, later 10): both on a scale of 10.
    static let crossing: [String: [ScriptedRelevance]] = [
        "Alpha": [.init(offset: 0, score: 10), .init(offset: 3600, score: 5), .init(offset: 7200, score: 1)],
        "Beta": [.init(offset: 0, score: 4), .init(offset: 3600, score: 6), .init(offset: 7200, score: 9),
                 .init(offset: 18000, score: 10)],
    ]

    @Test("a challenger needs the margin: a lead of 0.1 keeps the top, a lead of 0.8 rotates it")
    func hysteresis() async throws {
        let setup = try RelevanceFixture(Self.crossing)
        try await setup.stack(["Alpha", "Beta"])
        let engine = setup.engine
        var ranking = try await engine.rankStack("s", at: setup.start)
        #expect(ranking.top == "alpha" && ranking.decision == .initial && ranking.topSince == setup.start)
        ranking = try await engine.rankStack("s", at: setup.at(300))
        #expect(ranking.decision == .keptLeader)

        ranking = try await engine.rankStack("s", at: setup.at(3600))
        #expect(ranking.top == "alpha")
        guard case .keptWithinMargin(let challenger, let lead) = ranking.decision else {
            Issue.record("expected keptWithinMargin, got \(ranking.decision)")
            return
        }
        #expect(challenger == "beta" && abs(lead - 0.1) < 1e-6)
        #expect(ranking.instances.map(\.instanceID) == ["alpha", "beta"], "the top is listed first")

        ranking = try await engine.rankStack("s", at: setup.at(7200))
        #expect(ranking.top == "beta" && ranking.decision == .rotated(from: "alpha"))
        #expect(ranking.topSince == setup.at(7200))
    }

    @Test("the top stays for the minimum dwell time even when a challenger leads by the margin")
    func minimumDwell() async throws {
        var scripts = Self.crossing
        scripts["Alpha"]?.append(.init(offset: 7800, score: 10))
        let setup = try RelevanceFixture(scripts)
        try await setup.stack(["Alpha", "Beta"])
        let policy = RankingPolicy(minimumDwell: 1800, hysteresisMargin: 0.05)
        let engine = setup.engine
        _ = try await engine.rankStack("s", at: setup.start, policy: policy)
        var ranking = try await engine.rankStack("s", at: setup.at(7200), policy: policy)
        #expect(ranking.top == "beta")
        ranking = try await engine.rankStack("s", at: setup.at(7800), policy: policy)
        #expect(ranking.top == "beta")
        #expect(ranking.decision == .keptMinimumDwell(challenger: "alpha", until: setup.at(9000)))
        ranking = try await engine.rankStack("s", at: setup.at(8999), policy: policy)
        #expect(ranking.top == "beta")
        ranking = try await engine.rankStack("s", at: setup.at(9000), policy: policy)
        #expect(ranking.top == "alpha" && ranking.decision == .rotated(from: "beta"))
    }

    @Test("the top and since when survive a restart; an earlier instant is answered without changing them")
    func persistsAcrossRestart() async throws {
        let setup = try RelevanceFixture(Self.crossing)
        try await setup.stack(["Alpha", "Beta"])
        _ = try await setup.engine.rankStack("s", at: setup.start)
        _ = try await setup.engine.rankStack("s", at: setup.at(7200))

        let reopened = try RelevanceFixture(Self.crossing, directory: setup.fixture.directory)
        var ranking = try await reopened.engine.rankStack("s", at: setup.at(7300))
        #expect(ranking.top == "beta" && ranking.topSince == setup.at(7200) && ranking.decision == .keptLeader)
        ranking = try await reopened.engine.rankStack("s", at: setup.start)
        #expect(ranking.decision == .historical && ranking.top == "alpha")
        ranking = try await reopened.engine.rankStack("s", at: setup.at(7400))
        #expect(ranking.top == "beta" && ranking.topSince == setup.at(7200))
    }

    @Test("equal scores: the earlier stack position wins, every time")
    func tieBreaks() async throws {
        let setup = try RelevanceFixture(["Alpha": [.init(offset: 0, score: 3)], "Beta": [.init(offset: 0, score: 3)],
                                          "Gamma": [.init(offset: 0, score: 3)]])
        try await setup.stack(["Gamma", "Alpha", "Beta"])
        for _ in 0..<3 {
            let ranking = try await setup.engine.rankStack("s", at: setup.start)
            #expect(ranking.top == "gamma")
            #expect(ranking.instances.map(\.instanceID) == ["gamma", "alpha", "beta"])
        }
    }

    @Test("stacks are created, listed, changed and deleted; a removed top is replaced at once")
    func stackLifecycle() async throws {
        let setup = try RelevanceFixture(Self.crossing)
        try await setup.stack(["Alpha", "Beta"])
        let engine = setup.engine
        try await engine.place(kind: "Gamma", family: .systemSmall, id: "gamma")
        await #expect(throws: SmartStackError.duplicateStack("s")) { try await engine.createStack("s") }
        await #expect(throws: EngineError.unknownInstance("nope")) { try await engine.createStack("t", instanceIDs: ["nope"]) }
        #expect(try await engine.stacks().map(\.id) == ["s"], "a failed create stores nothing")
        #expect(try await engine.addToStack("s", instanceID: "gamma").instanceIDs == ["alpha", "beta", "gamma"])
        await #expect(throws: SmartStackError.alreadyInStack(stack: "s", instance: "gamma")) {
            try await engine.addToStack("s", instanceID: "gamma")
        }
        #expect(try await engine.rankStack("s", at: setup.start).top == "alpha")
        #expect(try await engine.removeFromStack("s", instanceID: "alpha").instanceIDs == ["beta", "gamma"])
        let ranking = try await engine.rankStack("s", at: setup.at(60))
        #expect(ranking.top == "beta" && ranking.decision == .initial)
        try await engine.remove(instanceID: "gamma")
        #expect(try await engine.stack("s").instanceIDs == ["beta"], "a removed widget leaves its stacks")
        try await engine.deleteStack("s")
        await #expect(throws: SmartStackError.unknownStack("s")) { try await engine.rankStack("s") }
    }
}
