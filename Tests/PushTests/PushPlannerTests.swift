import Foundation
import JSON
import Push
import Testing

@Suite("Push planner sequences on a virtual clock")
struct PushPlannerTests {
    @Test("the first change goes out at once, priority 5, stale at twice the expected interval, to the current token")
    func firstChange() throws {
        let fixture = try PlannerFixture()
        let decision = try fixture.submit(parcel("packed"), at: 0.7)
        #expect(decision.kind == .sent)
        #expect(decision.priority == 5)
        let aps = try fixture.aps(decision)
        #expect(aps["event"] == "update")
        #expect(aps["timestamp"] == fixture.seconds(0))
        #expect(aps["stale-date"] == fixture.seconds(600))
        #expect(aps["content-state"] == parcel("packed"))
        #expect(aps["alert"] == nil)
        let push = try #require(try fixture.planner.outbox.pushes(status: .pending).first)
        #expect(push.deviceToken == PlannerFixture.token)
        #expect(push.headers.topic == "com.example.parcels.push-type.liveactivity")
        #expect(push.apnsID == decision.apnsID)
    }

    @Test("changes within the minimum interval coalesce to the latest, which goes out when the interval has passed")
    func coalescing() throws {
        let fixture = try PlannerFixture()
        try fixture.submit(parcel("packed", stops: 9), at: 0)
        let deferred = try fixture.submit(parcel("inTransit", stops: 8), at: 10)
        #expect(deferred.kind == .deferredByInterval)
        #expect(deferred.dueAt == fixture.start.addingTimeInterval(60))
        #expect(try fixture.submit(parcel("inTransit", stops: 7), at: 20).kind == .coalesced)
        #expect(try fixture.planner.nextFlushDate() == fixture.start.addingTimeInterval(60))
        #expect(try fixture.flush(at: 59).isEmpty)
        let sent = try #require(try fixture.flush(at: 60).first)
        #expect(sent.kind == .sent)
        #expect(try fixture.aps(sent)["content-state"] == parcel("inTransit", stops: 7))
        #expect(try fixture.planner.outbox.pushes().count == 2)
        // After the interval, a change goes out at once again.
        #expect(try fixture.submit(parcel("inTransit", stops: 6), at: 121).kind == .sent)
    }

    @Test("changes below the significance rules are held and go out at the expected interval; a big move goes at once")
    func significance() throws {
        var policy = PlannerPolicy()
        policy.significance = [SignificanceRule(pointer: "/progress", threshold: 0.05, relative: true),
                               SignificanceRule(pointer: "/status")]
        let fixture = try PlannerFixture(policy: policy)
        try fixture.submit(parcel("inTransit", progress: 0.50), at: 0)
        let small = try fixture.submit(parcel("inTransit", progress: 0.51), at: 100)
        #expect(small.kind == .skippedInsignificant)
        #expect(small.dueAt == fixture.start.addingTimeInterval(300))
        // The stops member is named by no rule: changing it alone is not significant either.
        #expect(try fixture.submit(parcel("inTransit", progress: 0.52, stops: 1), at: 110).kind == .skippedInsignificant)
        #expect(try fixture.submit(parcel("inTransit", progress: 0.50), at: 120).kind == .skippedInsignificant)
        try fixture.submit(parcel("inTransit", progress: 0.52), at: 130)
        #expect(try fixture.planner.nextFlushDate() == fixture.start.addingTimeInterval(300))
        let held = try #require(try fixture.flush(at: 300).first)
        #expect(held.kind == .sent)
        #expect(try fixture.aps(held)["content-state"] == parcel("inTransit", progress: 0.52))
        #expect(try fixture.submit(parcel("inTransit", progress: 0.60), at: 400).kind == .sent)
        #expect(try fixture.submit(parcel("outForDelivery", progress: 0.60), at: 500).kind == .sent)
    }

    @Test("priority 10 only for alert-worthy changes, within the hourly budget; frequent pushes raise it")
    func budget() throws {
        var policy = PlannerPolicy()
        policy.minimumInterval = 0
        policy.alert = [MemberRule(pointer: "/status", values: ["arriving"])]
        policy.highPriorityPerHour = 2
        policy.frequentHighPriorityPerHour = 3
        let fixture = try PlannerFixture(policy: policy)
        var priorities: [Int?] = []
        var kinds: [PlannerDecision.Kind] = []
        for minute in 0..<6 {
            let decision = try fixture.submit(parcel(minute % 2 == 0 ? "inTransit" : "arriving"), at: Double(minute) * 60)
            priorities.append(decision.priority)
            kinds.append(decision.kind)
        }
        #expect(priorities == [5, 10, 5, 10, 5, nil])
        #expect(kinds.last == .deferredByBudget)
        let alerting = try fixture.aps(try #require(try fixture.planner.decisions(kinds: [.sent]).first { $0.priority == 10 }))
        #expect(alerting["alert"] != nil)
        // Not exceeded in any hour: two priority-10 pushes.
        #expect(try fixture.planner.outbox.pushes().filter { $0.priority == 10 }.count == 2)
        // With frequent pushes on, the third is in budget.
        let frequent = try fixture.submit(parcel("arriving"), at: 360, frequentPushes: true)
        #expect(frequent.kind == .sent && frequent.priority == 10)
        #expect(try fixture.submit(parcel("inTransit"), at: 420, frequentPushes: true).priority == 5)
        #expect(try fixture.submit(parcel("arriving"), at: 480, frequentPushes: true).kind == .deferredByBudget)
    }

    @Test("a completion rule ends the activity with a dismissal date; later changes are after_end")
    func completion() throws {
        var policy = PlannerPolicy()
        policy.completion = [MemberRule(pointer: "/status", values: ["delivered"])]
        let fixture = try PlannerFixture(policy: policy)
        try fixture.submit(parcel("inTransit"), at: 0)
        let end = try fixture.submit(parcel("delivered", progress: 0.75), at: 5)
        #expect(end.kind == .endedByCompletion)
        let aps = try fixture.aps(end)
        #expect(aps["event"] == "end")
        #expect(aps["timestamp"] == fixture.seconds(5))
        #expect(aps["dismissal-date"] == fixture.seconds(5 + 900))
        #expect(aps["content-state"] == parcel("delivered", progress: 0.75))
        #expect(try fixture.submit(parcel("inTransit"), at: 100).kind == .afterEnd)
        #expect(try fixture.planner.nextFlushDate() == nil)
        #expect(try fixture.planner.outbox.pushes().count == 2)
    }

    @Test("an activity is ended before the 8-hour limit with its latest state, even when changes stopped")
    func timeLimit() throws {
        let fixture = try PlannerFixture()
        try fixture.submit(parcel("inTransit", stops: 4), at: 0)
        try fixture.submit(parcel("inTransit", stops: 3), at: 30)
        #expect(try fixture.planner.nextFlushDate() == fixture.start.addingTimeInterval(60))
        #expect(try fixture.flush(at: 60).map(\.kind) == [.sent])
        let limit = 7.5 * 3600
        #expect(try fixture.planner.nextFlushDate() == fixture.start.addingTimeInterval(limit))
        #expect(try fixture.flush(at: limit - 1).isEmpty)
        let end = try #require(try fixture.flush(at: limit).first)
        #expect(end.kind == .endedByTimeLimit)
        #expect(try fixture.aps(end)["event"] == "end")
        #expect(try fixture.aps(end)["content-state"] == parcel("inTransit", stops: 3))
        #expect(try fixture.planner.nextFlushDate() == nil)
        #expect(try fixture.submit(parcel("x"), at: limit + 5).kind == .afterEnd)
    }

    @Test("timestamps are whole seconds and strictly increase per activity, even within one second")
    func increasingTimestamps() throws {
        var policy = PlannerPolicy()
        policy.minimumInterval = 0
        let fixture = try PlannerFixture(policy: policy)
        let timestamps = try (0..<4).map { index in
            try fixture.aps(try fixture.submit(parcel("s\(index)"), at: 0.1 * Double(index)))["timestamp"]
        }
        #expect(timestamps == [fixture.seconds(0), fixture.seconds(1), fixture.seconds(2), fixture.seconds(3)])
        // A change dated earlier than the last push still gets a later timestamp.
        #expect(try fixture.aps(try fixture.submit(parcel("late"), at: -50))["timestamp"] == fixture.seconds(4))
    }

    @Test("without a registered token the decision is no_token and nothing is queued")
    func noToken() throws {
        let fixture = try PlannerFixture(tokenFor: [])
        let decision = try fixture.submit(parcel("packed"), at: 0)
        #expect(decision.kind == .noToken)
        #expect(decision.reason.contains("/v1/push/tokens/activities/a1"))
        #expect(try fixture.planner.outbox.pushes().isEmpty)
        // Registered later, the next change goes out (nothing was counted as pushed).
        try fixture.store.tokens.register(PlannerFixture.token, in: .activity(id: "a1"))
        #expect(try fixture.submit(parcel("packed"), at: 1).kind == .sent)
    }

    @Test("decisions are queryable by activity and kind, with reasons, after a restart; the outbox too")
    func durability() throws {
        let fixture = try PlannerFixture()
        try fixture.submit(parcel("a"), at: 0)
        try fixture.submit(parcel("b"), at: 1)
        try fixture.submit(parcel("c"), at: 2, activity: "other")
        let reopened = try fixture.reopened()
        let decisions = try reopened.planner.decisions(activityID: "a1")
        #expect(decisions.map(\.kind) == [.sent, .deferredByInterval])
        #expect(decisions[1].reason.contains("minimum interval of 60 s"))
        #expect(try reopened.planner.decisions(kinds: [.noToken]).map(\.activityID) == ["other"])
        #expect(try reopened.outbox.pushes(status: .pending).count == 1)
        // The held state survived too: it goes out when due.
        #expect(try reopened.planner.flush(now: fixture.start.addingTimeInterval(60)).map(\.kind) == [.sent])
    }

    @Test("a batch is one transaction: a bad change refuses the whole batch")
    func batch() throws {
        let fixture = try PlannerFixture()
        let good = StateChange(activityID: "a1", attributesType: PlannerFixture.type, state: parcel("a"))
        let bad = StateChange(activityID: "a1", attributesType: PlannerFixture.type, state: "not an object")
        #expect(throws: PushPlannerError.stateNotObject) { try fixture.planner.submit([good, bad]) }
        #expect(try fixture.planner.decisions().isEmpty)
        let mismatch = StateChange(activityID: "a1", attributesType: "Other", state: parcel("b"))
        #expect(throws: PushPlannerError.self) { try fixture.planner.submit([good, mismatch]) }
        #expect(try fixture.planner.outbox.pushes().isEmpty)
        #expect(try fixture.planner.submit([good]).map(\.kind) == [.sent])
    }

    @Test("policies are stored per attributes type, absent members default, and bad ones are refused")
    func policies() throws {
        let fixture = try PlannerFixture()
        #expect(try fixture.planner.policy(for: "Unset") == PlannerPolicy())
        let decoded = try JSONDecoder().decode(PlannerPolicy.self, from: Data(#"{"minimumInterval":30}"#.utf8))
        #expect(decoded.minimumInterval == 30 && decoded.expectedInterval == 300 && decoded.effectiveStaleInterval == 600)
        try fixture.planner.setPolicy(decoded, for: "Parcel")
        #expect(try fixture.reopened().planner.policy(for: "Parcel") == decoded)
        var bad = PlannerPolicy()
        bad.endAfter = 9 * 3600
        #expect(throws: PlannerPolicyProblem.self) { try fixture.planner.setPolicy(bad, for: "Parcel") }
        bad = PlannerPolicy()
        bad.significance = [SignificanceRule(pointer: "progress")]
        #expect(bad.problem?.field == "significance")
        bad = PlannerPolicy()
        bad.staleInterval = 300
        #expect(bad.problem?.field == "staleInterval")
        #expect(try fixture.planner.policy(for: "Parcel") == decoded)
    }
}

extension PushPlannerTests {
    @Test("a state is compared as the wire carries it: 1.0 and 1 are the same change")
    func wireEquality() throws {
        let fixture = try PlannerFixture()
        try fixture.submit(["progress": .double(1.0)], at: 0)
        let again = try fixture.submit(["progress": .int(1)], at: 100)
        #expect(again.kind == .skippedInsignificant)
        #expect(again.reason.contains("the same state as the last push"))
    }
}
