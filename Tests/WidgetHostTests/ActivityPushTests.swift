import ActivityKit
import Foundation
import JSON
import Push
import Testing
import WidgetHost

@Suite("Live Activity pushes, applied as a device applies them")
struct ActivityPushTests {
    @Test("an update with a later timestamp applies; the same or an older timestamp is ignored and recorded")
    func ordering() async throws {
        let fixture = try ActivityFixture()
        let activity = try await fixture.request()
        let token = activity.pushToken
        try await fixture.engine.advanceClock(by: 60)
        let state = try ActivityFixture.json(ActivityFixture.state(stops: 2))
        let applied = try fixture.push(#"{"event":"update","timestamp":\#(fixture.seconds()),"content-state":\#(state)}"#,
                                       token: token)
        #expect(applied.applied)
        #expect(activity.content.state.stopsAway == 2)

        for offset in [0.0, -30] {
            let older = try ActivityFixture.json(ActivityFixture.state(stops: 9))
            let ignored = try fixture.push(
                #"{"event":"update","timestamp":\#(fixture.seconds(offset)),"content-state":\#(older)}"#, token: token)
            #expect(ignored.ignoredReasons == [.staleTimestamp])
            #expect(activity.content.state.stopsAway == 2)
        }
        let missing = try fixture.push(#"{"event":"update","content-state":\#(state)}"#, token: token)
        #expect(missing.ignoredReasons == [.missingTimestamp])
    }

    /// Content states a server might send that do not decode as `ParcelAttributes.ContentState`.
    static let undecodable: [(String, String)] = [
        (#"{"stage":"inTransit","stopsAway":"128","arrival":800000000}"#, "stopsAway"),
        (#"{"stage":"inTransit","arrival":800000000}"#, "stopsAway"),
        (#"{"stage":"lost","stopsAway":1,"arrival":800000000}"#, "stage"),
        (#"{"stage":"inTransit","stopsAway":1,"arrival":"2026-12-02T10:00:00Z"}"#, "arrival"),
        // Foundation's decoder names no path for a fraction where an Int belongs, so only the reason is checked.
        (#"{"stage":"inTransit","stopsAway":1.5,"arrival":800000000}"#, ""),
    ]

    @Test("a content-state that does not decode as ContentState is dropped: nothing changes on the screen",
          arguments: undecodable)
    func undecodableContent(_ contentState: String, _ field: String) async throws {
        let fixture = try ActivityFixture()
        let activity = try await fixture.request()
        let before = activity.content
        let delivery = try fixture.push(
            #"{"event":"update","timestamp":\#(fixture.seconds(5)),"content-state":\#(contentState)}"#,
            token: activity.pushToken)
        #expect(delivery.ignoredReasons == [.undecodableContentState])
        #expect(activity.content == before)
        let ignored = try #require(try fixture.lastIgnored(activity.id))
        #expect(field.isEmpty || ignored.detail.contains(field))
        #expect(ignored.payload?.objectValue?["aps"] != nil)
    }

    @Test("an end without dismissal-date uses the default policy; with one, it is dismissed then")
    func ends() async throws {
        let fixture = try ActivityFixture()
        let first = try await fixture.request()
        let second = try await fixture.request()
        try await fixture.engine.advanceClock(by: 60)
        #expect(try fixture.push(#"{"event":"end","timestamp":\#(fixture.seconds())}"#,
                                 token: first.pushToken).applied)
        let dismissal = fixture.seconds(1800)
        #expect(try fixture.push(#"{"event":"end","timestamp":\#(fixture.seconds()),"dismissal-date":\#(dismissal)}"#,
                                 token: second.pushToken).applied)
        try await fixture.engine.advanceClock(by: 5 * 3600)
        #expect(try fixture.stateChanges(first.id).map(\.1) == [0, 60, 60 + 4 * 3600])
        #expect(try fixture.stateChanges(second.id).map(\.1) == [0, 60, 60 + 1800])
    }

    @Test("push-to-start: without an alert nothing starts; with one, an activity starts with an update token")
    func pushToStart() async throws {
        let fixture = try ActivityFixture()
        let startToken = try #require(try await fixture.engine.runAppCode {
            Activity<ParcelAttributes>.pushToStartToken
        })
        let state = try ActivityFixture.json(ActivityFixture.state())
        let common = #""event":"start","timestamp":\#(fixture.seconds()),"attributes-type":"ParcelAttributes","attributes":{"parcelID":"P-9"},"content-state":\#(state),"input-push-token":1"#
        let silent = try fixture.push("{\(common)}", token: startToken)
        #expect(silent.ignoredReasons == [.startWithoutAlert])
        #expect(try fixture.activities.activities().isEmpty)

        let wrongType = try fixture.push(#"{"event":"start","timestamp":1,"attributes-type":"Other","alert":{"title":"a","body":"b"}}"#,
                                         token: startToken)
        #expect(wrongType.ignoredReasons == [.attributesTypeMismatch])

        var starts = try await fixture.engine.runAppCode { Activity<ParcelAttributes>.activityUpdates }.makeAsyncIterator()
        let started = try fixture.push(#"{\#(common),"alert":{"title":"Shipped","body":{"loc-key":"SHIPPED_%@","loc-args":["P-9"]},"sound":"chime.caf"}}"#,
                                       token: startToken)
        let id = try #require(started.results.first?.activityID)
        #expect(started.applied)
        let record = try fixture.activities.activity(id: id)
        #expect(record.startedBy == .push && record.state == .active && record.pushToken != nil)
        #expect(record.attributes == .object(["parcelID": .string("P-9")]))
        let screen = try fixture.activities.screen(activityID: id, at: fixture.clock.now)
        #expect(screen.lastAlert == ActivityAlert(title: "Shipped", body: "SHIPPED_%@ P-9", sound: "chime.caf"))
        let seen = await starts.next()
        #expect(seen?.id == id)
        #expect(seen?.attributes.parcelID == "P-9")
    }

    @Test("a rotated token: the stream delivers every new one, a push to an old one is recorded as replaced")
    func rotation() async throws {
        let fixture = try ActivityFixture(rules: ActivityRules(tokenRotationInterval: 3600))
        let activity = try await fixture.request()
        var tokens = activity.pushTokenUpdates.makeAsyncIterator()
        let first = try #require(await tokens.next())
        #expect(first == activity.pushToken)
        try await fixture.engine.advanceClock(by: 2 * 3600 + 60)
        let second = try #require(await tokens.next())
        let third = try #require(await tokens.next())
        let onDemand = try fixture.activities.rotateToken(activityID: activity.id)
        #expect(await tokens.next() == onDemand)
        #expect(Set([first, second, third, onDemand]).count == 4)
        #expect(activity.pushToken == onDemand)
        let issued = try fixture.activities.tokens(activityID: activity.id)
        #expect(issued.map(\.issuedAt.timeIntervalSince1970) == [0, 3600, 7200, 7260].map {
            ActivityFixture.start.timeIntervalSince1970 + $0
        })
        let state = try ActivityFixture.json(ActivityFixture.state(stops: 1))
        let stale = try fixture.push(#"{"event":"update","timestamp":\#(fixture.seconds()),"content-state":\#(state)}"#,
                                     token: second)
        #expect(stale.ignoredReasons == [.replacedToken])
        #expect(try fixture.lastIgnored(activity.id)?.detail.contains(PushTokenText.hex(onDemand)) == true)
        let unknown = try fixture.push(#"{"event":"update","timestamp":1}"#, token: Data(repeating: 7, count: 32))
        #expect(unknown.ignoredReasons == [.unknownToken])
        #expect(try fixture.lastIgnored(nil)?.reason == .unknownToken)
    }

    @Test("a broadcast reaches every activity on the channel; a start to an update token is not allowed")
    func channelsAndEvents() async throws {
        let fixture = try ActivityFixture()
        let a = try await fixture.request(pushType: .channel("match-42"))
        let b = try await fixture.request(pushType: .channel("match-42"))
        let other = try await fixture.request()
        let state = try ActivityFixture.json(ActivityFixture.state(stops: 0))
        let broadcast = try fixture.push(#"{"event":"update","timestamp":\#(fixture.seconds(1)),"content-state":\#(state)}"#,
                                         channel: "match-42")
        #expect(Set(broadcast.results.map(\.activityID)) == Set([a.id, b.id]))
        #expect(broadcast.results.allSatisfy { $0.outcome == .applied })
        #expect(a.content.state.stopsAway == 0 && other.content.state.stopsAway == 3)
        let start = try fixture.push(#"{"event":"start","timestamp":\#(fixture.seconds(2))}"#,
                                     token: other.pushToken)
        #expect(start.ignoredReasons == [.eventNotAllowed])
        let nobody = try fixture.push(#"{"event":"update","timestamp":1}"#, channel: "nobody")
        #expect(nobody.ignoredReasons == [.unknownToken])
    }

    @Test("switched off, pushes are ignored and requests refused")
    func authorization() async throws {
        let fixture = try ActivityFixture()
        let activity = try await fixture.request()
        var updates = try await fixture.engine.runAppCode { ActivityAuthorizationInfo().activityEnablementUpdates }
            .makeAsyncIterator()
        try fixture.activities.setAuthorization(ActivityAuthorization(activitiesEnabled: false, frequentPushesEnabled: true))
        #expect(await updates.next() == false)
        // A change of the other switch alone is not a change of this one: the next value seen is the next change.
        try fixture.activities.setAuthorization(ActivityAuthorization(activitiesEnabled: false, frequentPushesEnabled: false))
        try fixture.activities.setAuthorization(ActivityAuthorization(activitiesEnabled: true, frequentPushesEnabled: false))
        #expect(await updates.next() == true)
        try fixture.activities.setAuthorization(ActivityAuthorization(activitiesEnabled: false, frequentPushesEnabled: true))
        #expect(try await fixture.engine.runAppCode { ActivityAuthorizationInfo().frequentPushesEnabled })
        let state = try ActivityFixture.json(ActivityFixture.state(stops: 1))
        let ignored = try fixture.push(#"{"event":"update","timestamp":\#(fixture.seconds(1)),"content-state":\#(state)}"#,
                                       token: activity.pushToken)
        #expect(ignored.ignoredReasons == [.activitiesDisabled])
        await #expect(throws: ActivityAuthorizationError.denied) {
            try await fixture.engine.runAppCode {
                _ = try Activity.request(attributes: ParcelAttributes(parcelID: "P-3"),
                                         content: ActivityContent(state: ActivityFixture.state(), staleDate: nil))
            }
        }
    }

    @Test("what APNs itself refuses is an error, and nothing is recorded")
    func apnsRefusals() async throws {
        let fixture = try ActivityFixture(rules: ActivityRules(bundleIdentifier: "com.example.parcels"))
        let activity = try await fixture.request()
        let token = activity.pushToken
        let payload = Data(#"{"aps":{"event":"end","timestamp":1}}"#.utf8)
        let refusals: [(DevicePush, DevicePushError)] = [
            (DevicePush(pushType: "alert", topic: ActivityFixture.topic, deviceToken: token, payload: payload),
             .unsupportedPushType("alert")),
            (DevicePush(pushType: "liveactivity", topic: nil, deviceToken: token, payload: payload),
             .missingHeader("apns-topic")),
            (DevicePush(pushType: "liveactivity", topic: "com.other.push-type.liveactivity", deviceToken: token,
                        payload: payload),
             .badTopic("com.other.push-type.liveactivity", expected: ActivityFixture.topic)),
            (DevicePush(pushType: "liveactivity", topic: ActivityFixture.topic, priority: 7, deviceToken: token,
                        payload: payload), .badPriority("7")),
            (DevicePush(pushType: "liveactivity", topic: ActivityFixture.topic, payload: payload),
             .badAddress("the push names neither a device token nor apns-channel-id")),
            (DevicePush(pushType: "liveactivity", topic: ActivityFixture.topic, deviceToken: token,
                        payload: Data(#"{"alert":"x"}"#.utf8)), .badPayload("has no \"aps\" object")),
            (DevicePush(pushType: "liveactivity", topic: ActivityFixture.topic, deviceToken: token,
                        payload: Data(repeating: 0x20, count: 4097)), .payloadTooLarge(size: 4097, limit: 4096)),
        ]
        for (push, error) in refusals {
            #expect(throws: error) { try fixture.activities.deliver(push) }
        }
        #expect(try fixture.activities.history(activityID: activity.id).allSatisfy {
            if case .ignored = $0.change { false } else { true }
        })
        #expect(activity.activityState == .active)
    }
}
