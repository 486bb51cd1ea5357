import ActivityKit
import Foundation
import JSON
import Push
import Testing
import WidgetHost

/// An engine on a virtual clock with ParcelAttributes registered, and a push store in the engine's database (as the
/// daemon keeps it).
struct LoopFixture {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("widgethost-loop-\(UUID().uuidString)", isDirectory: true)
    let clock = VirtualClock(start: Sample.nowDate)
    let engine: WidgetEngine
    let push: PushStore

    init() throws {
        var catalog = WidgetCatalog()
        catalog.registerActivity(ParcelAttributes.self)
        engine = WidgetEngine(catalog: catalog, store: try EngineStore(directory: directory), clock: clock)
        let clock = self.clock
        push = try PushStore(database: engine.store.database, now: { clock.now })
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// The whole loop on one machine: state changes → planner → outbox → the engine's device → the Lock Screen at T.
@Suite("Planner to device, on the engine's virtual clock")
struct PushLoopTests {
    @Test("the Lock Screen shows the latest state, goes stale when updates stop, and ends on completion")
    func fullLoop() async throws {
        let loop = try LoopFixture()
        defer { loop.remove() }
        let (engine, clock, push) = (loop.engine, loop.clock, loop.push)
        var policy = PlannerPolicy()
        policy.completion = [MemberRule(pointer: "/stage", values: ["delivered"])]
        try push.planner.setPolicy(policy, for: ActivityAttributesType(ParcelAttributes.self).name)

        @Sendable func state(_ stage: ParcelAttributes.ContentState.Stage, _ stops: Int) -> ParcelAttributes.ContentState {
            ParcelAttributes.ContentState(stage: stage, stopsAway: stops, arrival: Sample.nowDate.addingTimeInterval(3600))
        }
        let activity = try await engine.runAppCode {
            try Activity.request(attributes: ParcelAttributes(parcelID: "P-1"),
                                 content: ActivityContent(state: state(.packed, 9), staleDate: nil), pushType: .token)
        }
        try push.tokens.register(try #require(activity.pushToken), in: .activity(id: activity.id))
        // A second later: the device ignores a push whose timestamp is not after the app's own start.
        _ = try await engine.advanceClock(by: 1)
        func submit(_ value: ParcelAttributes.ContentState) throws -> PlannerDecision {
            try push.planner.submit(activityID: activity.id, state: value, of: ParcelAttributes.self)
        }
        func deliver() throws -> [LiveActivities.OutboxDelivery] {
            try engine.activities.deliver(outbox: push.outbox)
        }
        func screen() throws -> ActivityScreen {
            try engine.activities.screen(activityID: activity.id, at: clock.now)
        }
        func shown() throws -> JSONValue? { try screen().content?.state }

        #expect(try submit(state(.inTransit, 5)).kind == .sent)
        #expect(try deliver().map(\.result) == ["applied"])
        #expect(try shown() == (try JSONParser.parse(JSONEncoder().encode(state(.inTransit, 5)))))

        _ = try await engine.advanceClock(by: 10)
        #expect(try submit(state(.inTransit, 4)).kind == .deferredByInterval)
        _ = try await engine.advanceClock(by: 10)
        #expect(try submit(state(.inTransit, 3)).kind == .coalesced)
        #expect(try deliver().isEmpty)
        let due = try #require(try push.planner.nextFlushDate())
        _ = try await engine.advanceClock(to: due)
        #expect(try push.planner.flush(now: clock.now).map(\.kind) == [.sent])
        #expect(try deliver().map(\.result) == ["applied"])
        #expect(try shown() == (try JSONParser.parse(JSONEncoder().encode(state(.inTransit, 3)))))
        #expect(try screen().isStale == false)
        #expect(try push.outbox.pushes(status: .delivered).count == 2)

        // No more changes: the stale date of the last update (twice the expected interval) makes it stale.
        _ = try await engine.advanceClock(by: 599)
        #expect(try screen().isStale == false)
        _ = try await engine.advanceClock(by: 2)
        #expect(try screen().isStale)

        // Delivered: the planner ends it; the device shows it ended with the final state.
        #expect(try submit(state(.delivered, 0)).kind == .endedByCompletion)
        #expect(try deliver().map(\.applied) == [true])
        #expect(try screen().state == .ended)
        #expect(try shown() == (try JSONParser.parse(JSONEncoder().encode(state(.delivered, 0)))))
    }

    @Test("a push the device ignores is marked delivered with the reason; a rotated token is not used")
    func ignoredPush() async throws {
        let loop = try LoopFixture()
        defer { loop.remove() }
        let (engine, push) = (loop.engine, loop.push)
        let activity = try await engine.runAppCode {
            try Activity.request(attributes: ParcelAttributes(parcelID: "P-2"),
                                 content: ActivityContent(state: ParcelAttributes.ContentState(
                                    stage: .packed, stopsAway: 9, arrival: Sample.nowDate), staleDate: nil),
                                 pushType: .token)
        }
        // A token the device never issued: the device ignores the push, and the outbox says why.
        try push.tokens.register(Data(repeating: 7, count: 32), in: .activity(id: activity.id))
        try push.planner.submit(activityID: activity.id, attributesType: "ParcelAttributes",
                                state: ["stage": "packed", "stopsAway": 1, "arrival": 0])
        let result = try #require(try engine.activities.deliver(outbox: push.outbox).first)
        #expect(!result.applied)
        #expect(result.result.hasPrefix("ignored: unknown_token"))
        #expect(try push.outbox.pushes(status: .delivered).first?.lastResult == result.result)
        #expect(try push.outbox.pushes(status: .pending).isEmpty)
    }
}
