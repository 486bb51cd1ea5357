import Foundation
import Push
import SharedState
import Testing
import WidgetHost

@Suite("Control pushes and the widget push token")
struct ControlPushTests {
    typealias Support = ControlTestSupport
    static let topic = "com.example.app.push-type.controls"
    static let changed = Data(#"{"aps":{"content-changed":true}}"#.utf8)

    @Test("a control push to the device's token reads every placed control again")
    func controlPushReloadsControls() async throws {
        let fixture = try ControlFixture()
        try await fixture.engine.placeControl(kind: Support.focus, id: "focus")
        try await fixture.engine.placeControl(kind: Support.end, id: "end")
        // The app changed the state behind the control's back; only a reload shows it.
        try fixture.container.suite().write(.bool(true), forKey: "focus.on")
        #expect(try await fixture.engine.control(id: "focus").value == .bool(false))
        let token = try await fixture.engine.widgetPushToken()
        let delivery = try await fixture.engine.receiveControlPush(
            DevicePush(pushType: "controls", topic: Self.topic, deviceToken: token, payload: Self.changed))
        guard case .applied(let reloads) = delivery else {
            Issue.record("the push was ignored: \(delivery)")
            return
        }
        #expect(reloads.map(\.instanceID) == ["focus", "end"])
        #expect(reloads.allSatisfy { $0.reason == .controlPush })
        #expect(try await fixture.engine.control(id: "focus").value == .bool(true))
    }

    @Test("a control push to another token, or without content-changed, changes nothing; APNs refusals throw")
    func ignoredAndRefused() async throws {
        let fixture = try ControlFixture()
        try await fixture.engine.placeControl(kind: Support.focus, id: "focus")
        let token = try await fixture.engine.widgetPushToken()
        let stranger = try await fixture.engine.receiveControlPush(
            DevicePush(pushType: "controls", topic: Self.topic, deviceToken: Data(repeating: 1, count: 32),
                       payload: Self.changed))
        guard case .ignored(.unknownToken, _) = stranger else {
            Issue.record("expected unknown_token, got \(stranger)")
            return
        }
        let unchanged = try await fixture.engine.receiveControlPush(
            DevicePush(pushType: "controls", topic: Self.topic, deviceToken: token, payload: Data(#"{"aps":{}}"#.utf8)))
        guard case .ignored(.missingContentChanged, _) = unchanged else {
            Issue.record("expected missing_content_changed, got \(unchanged)")
            return
        }
        await #expect(throws: DevicePushError.badTopic("com.example.app.push-type.widgets",
                                                       expected: "<bundle id>.push-type.controls")) {
            _ = try await fixture.engine.receiveControlPush(
                DevicePush(pushType: "controls", topic: "com.example.app.push-type.widgets", deviceToken: token,
                           payload: Self.changed))
        }
        #expect(try await fixture.engine.controlReloads().map(\.reason) == [.placed])
    }

    @Test("renewing the token hands the new one to the push handler, rotates the registry's slot, retires the old")
    func renewal() async throws {
        let fixture = try ControlFixture(widgets: Support.widgets)
        try await fixture.engine.place(kind: "FocusWidget", family: .systemSmall, id: "w1")
        let first = try await fixture.engine.widgetPushToken()
        #expect(await fixture.engine.widgetPushHandlerCalls == 1)

        let renewed = try await fixture.engine.renewWidgetPushToken()
        #expect(renewed != first)
        #expect(try await fixture.engine.widgetPushToken() == renewed)
        #expect(await fixture.engine.widgetPushHandlerCalls == 2)
        #expect(try WidgetPushHandlerTests.handed(fixture.container).token == WidgetPushHandlerTests.hex(renewed))
        #expect(try WidgetPushHandlerTests.handed(fixture.container).widgets == ["w1"])

        let registry = try PushTokenRegistry(database: fixture.engine.store.database, now: { Date() })
        let slot = PushTokenSlot.widgets(device: try await fixture.engine.deviceIdentifier())
        let history = try registry.history(slot)
        #expect(history.map(\.token) == [first, renewed])
        #expect(history.first?.replacedAt != nil)
        #expect(try registry.current(slot)?.widgetKinds == ["FocusWidget"])

        let old = try await fixture.engine.receiveControlPush(
            DevicePush(pushType: "controls", topic: Self.topic, deviceToken: first, payload: Self.changed))
        guard case .ignored(.unknownToken, _) = old else {
            Issue.record("a push to the old token was not ignored: \(old)")
            return
        }
    }

    @Test("the registry's widget kinds follow placements, with or without a push handler")
    func registryFollowsPlacements() async throws {
        let fixture = try ControlFixture(widgets: Support.widgetsReloadingControls)
        let token = try await fixture.engine.widgetPushToken()
        let registry = try PushTokenRegistry(database: fixture.engine.store.database, now: { Date() })
        let slot = PushTokenSlot.widgets(device: try await fixture.engine.deviceIdentifier())
        #expect(try registry.current(slot)?.token == token)
        #expect(try registry.current(slot)?.widgetKinds == [])
        try await fixture.engine.place(kind: "FocusSummary", family: .systemSmall, id: "summary")
        #expect(try registry.current(slot)?.widgetKinds == ["FocusSummary"])
        try await fixture.engine.remove(instanceID: "summary")
        #expect(try registry.current(slot)?.widgetKinds == [])
        #expect(await fixture.engine.widgetPushHandlerCalls == 0)
    }
}
