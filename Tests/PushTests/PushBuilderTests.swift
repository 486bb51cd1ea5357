import ActivityKit
import Foundation
import JSON
import Push
import Testing

@Suite("Push builders: exact bytes, epochs, refusals")
struct PushBuilderTests {
    static let timestamp = Date(timeIntervalSince1970: Double(Sample.now) + 0.75)
    static let arrival = Date(timeIntervalSince1970: Double(Sample.now + 3600))
    static let state = ParcelAttributes.ContentState(stage: .inTransit, stopsAway: 3, arrival: arrival)

    @Test("an update's bytes: timestamp and stale-date in whole seconds since 1970, content dates since 2001")
    func updateBytes() throws {
        let push = try LiveActivityPush.update(Self.state, timestamp: Self.timestamp,
                                               staleDate: Self.arrival)
        let text = String(decoding: try push.payload(), as: UTF8.self)
        let arrival2001 = Int(Self.arrival.timeIntervalSinceReferenceDate)
        #expect(text == """
            {"aps":{"content-state":{"arrival":\(arrival2001),"stage":"inTransit","stopsAway":3},"event":"update",\
            "stale-date":\(Sample.now + 3600),"timestamp":\(Sample.now)}}
            """)
        #expect(arrival2001 == Sample.arrival2001)
    }

    @Test("a push-to-start's bytes, with a localized alert; it passes the checker")
    func startBytes() throws {
        let alert = LiveActivityAlert(title: .localized(key: "PARCEL_%@", arguments: ["P-1"]), body: .plain("Soon"))
        let push = try LiveActivityPush.start(ParcelAttributes(parcelID: "P-1"), state: Self.state, alert: alert,
                                              timestamp: Self.timestamp)
        let payload = try push.payload()
        #expect(String(decoding: payload, as: UTF8.self) == """
            {"aps":{"alert":{"body":"Soon","sound":"default","title":{"loc-args":["P-1"],"loc-key":"PARCEL_%@"}},\
            "attributes":{"parcelID":"P-1"},"attributes-type":"ParcelAttributes","content-state":\(Sample.state),\
            "event":"start","input-push-token":1,"timestamp":\(Sample.now)}}
            """)
        let headers = try push.headers(bundleIdentifier: Sample.bundle).dictionary()
        #expect(headers == ["apns-push-type": "liveactivity", "apns-priority": "10",
                            "apns-topic": "com.example.parcels.push-type.liveactivity"])
        #expect(PushChecker.check(headers: headers, payload: payload, types: Sample.types, now: Sample.nowDate) == [])
    }

    @Test("built updates and ends pass the checker; a silent update goes at priority 5")
    func builtPushesPass() throws {
        let update = try LiveActivityPush.update(Self.state, timestamp: Self.timestamp, staleDate: Self.arrival)
        let end = try LiveActivityPush.end(Self.state, timestamp: Self.timestamp,
                                           dismissalDate: Self.timestamp.addingTimeInterval(60))
        for push in [update, end] {
            let headers = try push.headers(bundleIdentifier: Sample.bundle)
            #expect(headers.priority == .low)
            #expect(PushChecker.check(headers: try headers.dictionary(), payload: try push.payload(),
                                      types: Sample.types, now: Sample.nowDate) == [])
        }
    }

    @Test("the widget push and its headers pass the checker")
    func widgetPush() throws {
        let headers = WidgetPush.headers(bundleIdentifier: Sample.bundle)
        #expect(try headers.fields().map(\.name) == ["apns-push-type", "apns-topic"])
        #expect(headers.topic == "com.example.parcels.push-type.widgets")
        #expect(PushChecker.check(headers: try headers.dictionary(), payload: WidgetPush.payload, types: []) == [])
    }

    @Test("the control push and its headers pass the checker; a control payload with data does not")
    func controlPush() throws {
        let headers = ControlPush.headers(bundleIdentifier: Sample.bundle)
        #expect(try headers.fields().map(\.value) == ["controls", "com.example.parcels.push-type.controls"])
        #expect(PushChecker.check(headers: try headers.dictionary(), payload: ControlPush.payload, types: []) == [])
        let withData = Data(#"{"aps":{"content-changed":true,"alert":"hi"}}"#.utf8)
        #expect(PushChecker.check(headers: try headers.dictionary(), payload: withData, types: []).map(\.code)
                == [.controlPayload])
    }

    /// Changes that make a push one the device would not take, and the field the refusal must name.
    static let refusals: [(String, @Sendable (inout LiveActivityPush) -> Void)] = [
        ("stale-date", { $0.staleDate = $0.timestamp.addingTimeInterval(-1) }),
        ("dismissal-date", { $0.dismissalDate = $0.timestamp.addingTimeInterval(60) }),
        ("relevance-score", { $0.relevanceScore = .nan }),
        ("content-state", { $0.contentState = nil }),
        ("attributes-type", { $0.attributesType = "ParcelAttributes" }),
        ("timestamp", { $0.timestamp = Date(timeIntervalSince1970: -5) }),
        ("alert.title.loc-key", { $0.alert = LiveActivityAlert(title: .localized(key: "", arguments: []), body: .plain("")) }),
        ("aps", { $0.contentState = ["pad": .string(String(repeating: "x", count: 5000))] }),
    ]

    @Test("the builder refuses what the device would drop, naming the field", arguments: refusals.indices)
    func refusal(_ index: Int) throws {
        let (field, change) = Self.refusals[index]
        var push = try LiveActivityPush.update(Self.state, timestamp: Self.timestamp, staleDate: Self.arrival)
        _ = try push.payload()
        change(&push)
        #expect(throws: PushBuildError.self) { try push.payload() }
        do {
            _ = try push.payload()
        } catch {
            #expect(error.field == field)
        }
    }

    @Test("a start cannot be broadcast, and a widget push cannot name a channel")
    func headerRefusals() throws {
        let start = try LiveActivityPush.start(ParcelAttributes(parcelID: "P-1"), state: Self.state,
                                               alert: LiveActivityAlert(title: .plain("a"), body: .plain("b")),
                                               timestamp: Self.timestamp)
        #expect(throws: PushBuildError(field: "apns-channel-id", reason: "a start cannot be broadcast; send it to the push-to-start token")) {
            try start.headers(bundleIdentifier: Sample.bundle, channelID: "abc")
        }
        var widget = WidgetPush.headers(bundleIdentifier: Sample.bundle)
        widget.channelID = "abc"
        #expect(throws: PushBuildError.self) { try widget.fields() }
        #expect(throws: PushBuildError.self) {
            try PushHeaders(pushType: .liveActivity, bundleIdentifier: "com example").fields()
        }
    }
}
