import ActivityKit
import Foundation
import Testing
import WidgetHost

@Suite("ActivityKit app code on the engine")
struct ActivityAppCodeTests {
    @Test("state and content streams see each change; the state stream finishes at the dismissal")
    func streams() async throws {
        let fixture = try ActivityFixture()
        let activity = try await fixture.request()
        var states = activity.activityStateUpdates.makeAsyncIterator()
        var contents = activity.contentUpdates.makeAsyncIterator()
        // Updated and ended outside the binding: the activity keeps its engine.
        await activity.update(ActivityContent(state: ActivityFixture.state(.delivered, stops: 0), staleDate: nil),
                              alertConfiguration: AlertConfiguration(title: "Delivered", body: "At the door",
                                                                     sound: .named("bell.caf")))
        await activity.end(nil, dismissalPolicy: .immediate)
        #expect(await contents.next()?.state.stage == .delivered)
        #expect(await states.next() == .ended)
        #expect(await states.next() == .dismissed)
        #expect(await states.next() == nil)
        let alert = try fixture.activities.screen(activityID: activity.id, at: fixture.clock.now).lastAlert
        #expect(alert == ActivityAlert(title: "Delivered", body: "At the door", sound: "bell.caf"))
    }

    @Test("an app update with an older timestamp than a push is ignored")
    func timestampedAppUpdate() async throws {
        let fixture = try ActivityFixture()
        let activity = try await fixture.request()
        let state = try ActivityFixture.json(ActivityFixture.state(stops: 1))
        _ = try fixture.push(#"{"event":"update","timestamp":\#(fixture.seconds(10)),"content-state":\#(state)}"#,
                             token: activity.pushToken)
        await activity.update(ActivityContent(state: ActivityFixture.state(stops: 5), staleDate: nil),
                              alertConfiguration: nil, timestamp: fixture.clock.now.addingTimeInterval(5))
        #expect(activity.content.state.stopsAway == 1)
        #expect(try fixture.lastIgnored(activity.id)?.reason == .staleTimestamp)
        await activity.update(ActivityContent(state: ActivityFixture.state(stops: 4), staleDate: nil))
        #expect(activity.content.state.stopsAway == 4)
    }

    @Test("the app may have five activities at once; a sixth is refused until one ends")
    func limit() async throws {
        let fixture = try ActivityFixture()
        var started: [Activity<ParcelAttributes>] = []
        for _ in 0..<5 { started.append(try await fixture.request()) }
        await #expect(throws: ActivityAuthorizationError.targetMaximumExceeded) { _ = try await fixture.request() }
        await started[0].end(nil)
        _ = try await fixture.request()
        let listed = try await fixture.engine.runAppCode { Activity<ParcelAttributes>.activities }
        #expect(listed.count == 6)
        #expect(listed.filter { $0.activityState == .active }.count == 5)
    }

    @Test("unbound, requests throw unsupported and the lists are empty")
    func unbound() async throws {
        #expect(throws: ActivityAuthorizationError.unsupported) {
            _ = try Activity.request(attributes: ParcelAttributes(parcelID: "P"),
                                     content: ActivityContent(state: ActivityFixture.state(), staleDate: nil))
        }
        #expect(Activity<ParcelAttributes>.activities.isEmpty)
        #expect(Activity<ParcelAttributes>.pushToStartToken == nil)
    }

    @Test("the API starts an activity from JSON only when it decodes as the registered type")
    func startFromJSON() async throws {
        let fixture = try ActivityFixture()
        let good = try JSONValueText.parse(try ActivityFixture.json(ActivityFixture.state()))
        #expect(throws: ActivityError.unknownAttributesType("Nope")) {
            try fixture.activities.start(.init(attributesType: "Nope", attributes: .object([:]),
                                               content: ActivityContentValue(state: good)))
        }
        #expect(throws: (any Error).self) {
            try fixture.activities.start(.init(attributesType: "ParcelAttributes", attributes: .object([:]),
                                               content: ActivityContentValue(state: good)))
        }
        #expect(try fixture.activities.activities().isEmpty)
        let record = try fixture.activities.start(.init(
            attributesType: "ParcelAttributes", attributes: .object(["parcelID": .string("P-7")]),
            content: ActivityContentValue(state: good), push: .token))
        let found = try await fixture.engine.runAppCode { Activity<ParcelAttributes>.activities }
        #expect(found.map(\.id) == [record.id])
        #expect(found.first?.attributes.parcelID == "P-7")
    }
}
