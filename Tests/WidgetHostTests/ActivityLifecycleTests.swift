import ActivityKit
import Foundation
import JSON
import Testing
import WidgetHost

@Suite("Live Activity lifecycle on the engine's clock")
struct ActivityLifecycleTests {
    /// How the app ends the activity (or does not), and the states expected, in hours after the start.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var endAfter: TimeInterval?
        var policy: @Sendable (Date) -> ActivityUIDismissalPolicy
        var expected: [(ActivityState, TimeInterval)]
        var description: String { name }
    }

    static let hour: TimeInterval = 3600

    static let cases: [Case] = [
        Case(name: "never ended: the system ends it at 8 h, it is dismissed at 12 h", endAfter: nil,
             policy: { _ in .default }, expected: [(.active, 0), (.ended, 8 * hour), (.dismissed, 12 * hour)]),
        Case(name: "ended at 1 h, default policy: 4 more hours", endAfter: 1 * hour, policy: { _ in .default },
             expected: [(.active, 0), (.ended, 1 * hour), (.dismissed, 5 * hour)]),
        Case(name: "ended at 7 h, default policy: 4 more hours, inside the 12", endAfter: 7 * hour,
             policy: { _ in .default }, expected: [(.active, 0), (.ended, 7 * hour), (.dismissed, 11 * hour)]),
        Case(name: "immediate: dismissed at the end", endAfter: 2 * hour, policy: { _ in .immediate },
             expected: [(.active, 0), (.ended, 2 * hour), (.dismissed, 2 * hour)]),
        Case(name: "after one hour", endAfter: 2 * hour, policy: { end in .after(end.addingTimeInterval(hour)) },
             expected: [(.active, 0), (.ended, 2 * hour), (.dismissed, 3 * hour)]),
        Case(name: "after ten hours is capped at four", endAfter: 2 * hour,
             policy: { end in .after(end.addingTimeInterval(10 * hour)) },
             expected: [(.active, 0), (.ended, 2 * hour), (.dismissed, 6 * hour)]),
        Case(name: "after a date already past: at once", endAfter: 2 * hour,
             policy: { end in .after(end.addingTimeInterval(-hour)) },
             expected: [(.active, 0), (.ended, 2 * hour), (.dismissed, 2 * hour)]),
    ]

    @Test("ends and dismissals follow the 8 h / +4 h / 12 h rules and the policy", arguments: cases)
    func lifecycle(_ testCase: Case) async throws {
        let fixture = try ActivityFixture()
        let activity = try await fixture.request()
        if let endAfter = testCase.endAfter {
            try await fixture.engine.advanceClock(by: endAfter)
            await activity.end(nil, dismissalPolicy: testCase.policy(fixture.clock.now))
        }
        try await fixture.engine.advanceClock(to: ActivityFixture.start.addingTimeInterval(13 * Self.hour))
        let changes = try fixture.stateChanges(activity.id)
        #expect(changes.map(\.0) == testCase.expected.map(\.0))
        #expect(changes.map(\.1) == testCase.expected.map(\.1))
        #expect(activity.activityState == .dismissed)
        #expect(try await fixture.engine.runAppCode { Activity<ParcelAttributes>.activities.count } == 0)
    }

    @Test("a passed stale date makes it stale at that moment, until content with a later one arrives")
    func staleness() async throws {
        let fixture = try ActivityFixture()
        let activity = try await fixture.request(stale: ActivityFixture.start.addingTimeInterval(1800))
        try await fixture.engine.advanceClock(by: 3600)
        #expect(activity.activityState == .stale)
        let early = try fixture.activities.screen(activityID: activity.id, at: ActivityFixture.start.addingTimeInterval(600))
        let late = try fixture.activities.screen(activityID: activity.id, at: ActivityFixture.start.addingTimeInterval(2700))
        #expect(early.isStale == false && early.isVisible)
        #expect(late.isStale == true && late.isVisible)

        await activity.update(ActivityContent(state: ActivityFixture.state(stops: 1),
                                              staleDate: fixture.clock.now.addingTimeInterval(1800)))
        #expect(activity.activityState == .active)
        #expect(activity.content.state.stopsAway == 1)
        try await fixture.engine.advanceClock(by: 3600)
        #expect(activity.activityState == .stale)
        let changes = try fixture.stateChanges(activity.id)
        #expect(changes.map(\.0) == [.active, .stale, .active, .stale])
        #expect(changes.map(\.1) == [0, 1800, 3600, 5400])
    }

    @Test("an ended activity does not go stale, and takes no more updates")
    func endedIsFinal() async throws {
        let fixture = try ActivityFixture()
        let activity = try await fixture.request(stale: ActivityFixture.start.addingTimeInterval(7200))
        await activity.end(nil)
        try await fixture.engine.advanceClock(by: 3 * 3600)
        #expect(activity.activityState == .ended)
        await activity.update(ActivityContent(state: ActivityFixture.state(stops: 0), staleDate: nil))
        #expect(activity.content.state.stopsAway == 3)
        #expect(try fixture.lastIgnored(activity.id)?.reason == .activityNotActive)
    }

    @Test("a scheduled activity is pending until its start, then active, with its alert")
    func scheduled() async throws {
        let fixture = try ActivityFixture()
        let activity = try await fixture.engine.runAppCode {
            try Activity.request(attributes: ParcelAttributes(parcelID: "P-2"),
                                 content: ActivityContent(state: ActivityFixture.state(), staleDate: nil),
                                 alertConfiguration: AlertConfiguration(title: "Out for delivery", body: "Today",
                                                                        sound: .default),
                                 start: ActivityFixture.start.addingTimeInterval(1800))
        }
        #expect(activity.activityState == .pending)
        try await fixture.engine.advanceClock(by: 3600)
        #expect(activity.activityState == .active)
        let screen = try fixture.activities.screen(activityID: activity.id, at: fixture.clock.now)
        #expect(screen.lastAlert?.title == "Out for delivery")
        #expect(screen.lastAlertAt == ActivityFixture.start.addingTimeInterval(1800))
        // The 8 hours count from the start, not the request.
        try await fixture.engine.advanceClock(to: ActivityFixture.start.addingTimeInterval(8 * 3600 + 1800))
        #expect(try fixture.stateChanges(activity.id).map(\.1) == [0, 1800, 8 * 3600 + 1800])
    }

    @Test("an activity survives a restart in the middle of its life and ends on time afterwards")
    func restart() async throws {
        let fixture = try ActivityFixture()
        let id = try await fixture.request().id
        try await fixture.engine.advanceClock(by: 3600)
        #expect(try fixture.activities.update(activityID: id, content: ActivityContentValue(
            state: try JSONValueText.parse(try ActivityFixture.json(ActivityFixture.state(stops: 2))))) == .applied)

        let restarted = try fixture.reopened()
        #expect(restarted.clock.now == ActivityFixture.start.addingTimeInterval(3600))
        let record = try restarted.activities.activity(id: id)
        #expect(record.state == .active)
        #expect(record.content.state.objectValue?["stopsAway"] == .int(2))
        #expect(record.pushToken != nil)
        try await restarted.engine.advanceClock(by: 8 * 3600)
        #expect(try restarted.stateChanges(id).map(\.0) == [.active, .ended])
        #expect(try restarted.stateChanges(id).map(\.1) == [0, 8 * 3600])
        // App code after the restart finds it, typed.
        let found = try await restarted.engine.runAppCode { Activity<ParcelAttributes>.activities }
        #expect(found.map(\.id) == [id])
        #expect(found.first?.content.state.stopsAway == 2)
    }

    @Test("a read settles what came due since the last change, even when nothing advanced the engine's clock")
    func readsSettle() async throws {
        let fixture = try ActivityFixture()
        let activity = try await fixture.request(stale: ActivityFixture.start.addingTimeInterval(600))
        // The clock moves without the engine hearing of it, as the wall clock does between requests.
        fixture.clock.set(to: ActivityFixture.start.addingTimeInterval(300))
        #expect(try fixture.activities.activity(id: activity.id).state == .active)
        fixture.clock.set(to: ActivityFixture.start.addingTimeInterval(9 * 3600))
        #expect(try fixture.activities.activity(id: activity.id).state == .ended)
        #expect(try fixture.stateChanges(activity.id).map(\.1) == [0, 600, 8 * 3600])
        #expect(activity.activityState == .ended)
    }

    @Test("what the screen showed is refused for a moment after now")
    func futureScreen() async throws {
        let fixture = try ActivityFixture()
        let activity = try await fixture.request()
        #expect(throws: ActivityError.futureTime(fixture.clock.now.addingTimeInterval(60))) {
            try fixture.activities.screen(activityID: activity.id, at: fixture.clock.now.addingTimeInterval(60))
        }
        let before = try fixture.activities.screen(activityID: activity.id, at: fixture.clock.now.addingTimeInterval(-60))
        #expect(before.state == nil && !before.isVisible)
    }
}

/// Parses JSON text in tests.
enum JSONValueText {
    static func parse(_ text: String) throws -> JSONValue {
        try JSONValue(parsing: text)
    }
}
