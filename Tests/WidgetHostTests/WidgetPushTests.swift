import DemoWidgets
import Foundation
import Push
import Testing
import WidgetHost

@Suite("Widget pushes, received as the device receives them")
struct WidgetPushTests {
    static let topic = "com.example.app.push-type.widgets"
    static let changed = Data(#"{"aps":{"content-changed":true}}"#.utf8)

    @Test("content-changed to the device's token reloads its placed widgets, charged, until the budget is spent")
    func reloadsChargedToBudget() async throws {
        let fixture = try EngineFixture(budget: ReloadBudgetPolicy(reloadsPerWindow: 2))
        _ = try await fixture.engine.place(kind: DemoCatalog.Kind.daily, family: .systemSmall, id: "daily-1")
        let token = try await fixture.engine.widgetPushToken()
        #expect(try await fixture.engine.widgetPushToken() == token)
        var charged: [[String]] = []
        for _ in 0..<3 {
            try await fixture.engine.advanceClock(by: 600)
            let delivery = try await fixture.engine.receiveWidgetPush(
                DevicePush(pushType: "widgets", topic: Self.topic, deviceToken: token, payload: Self.changed))
            guard case .applied(let reloads) = delivery else {
                Issue.record("the push was ignored: \(delivery)")
                return
            }
            #expect(reloads.allSatisfy { $0.reason == .widgetPush })
            charged.append(reloads.flatMap(\.chargedInstanceIDs))
        }
        // Two reloads fit the budget; the third push finds it spent, so the widget is deferred, not reloaded.
        #expect(charged == [["daily-1"], ["daily-1"], []])
    }

    @Test("a push to another token, or without content-changed, changes nothing; APNs refusals throw")
    func ignoredAndRefused() async throws {
        let fixture = try EngineFixture()
        _ = try await fixture.engine.place(kind: DemoCatalog.Kind.daily, family: .systemSmall, id: "daily-1")
        let token = try await fixture.engine.widgetPushToken()
        let before = try await fixture.engine.state(ofInstance: "daily-1")
        let stranger = try await fixture.engine.receiveWidgetPush(
            DevicePush(pushType: "widgets", topic: Self.topic, deviceToken: Data(repeating: 1, count: 32),
                       payload: Self.changed))
        guard case .ignored(.unknownToken, _) = stranger else {
            Issue.record("expected unknown_token, got \(stranger)")
            return
        }
        let unchanged = try await fixture.engine.receiveWidgetPush(
            DevicePush(pushType: "widgets", topic: Self.topic, deviceToken: token,
                       payload: Data(#"{"aps":{"content-changed":false}}"#.utf8)))
        guard case .ignored(.missingContentChanged, _) = unchanged else {
            Issue.record("expected missing_content_changed, got \(unchanged)")
            return
        }
        let refusals: [(DevicePush, DevicePushError)] = [
            (DevicePush(pushType: "widgets", topic: "com.example.app.push-type.liveactivity", deviceToken: token,
                        payload: Self.changed),
             .badTopic("com.example.app.push-type.liveactivity", expected: "<bundle id>.push-type.widgets")),
            (DevicePush(pushType: "widgets", topic: Self.topic, priority: 1, deviceToken: token, payload: Self.changed),
             .badPriority("1")),
            (DevicePush(pushType: "widgets", topic: Self.topic, channelID: "c", payload: Self.changed),
             .badAddress("a widgets push goes to the device's widget push token, not a channel")),
        ]
        for (push, error) in refusals {
            await #expect(throws: error) { _ = try await fixture.engine.receiveWidgetPush(push) }
        }
        let after = try await fixture.engine.state(ofInstance: "daily-1")
        #expect(after.providerRuns == before.providerRuns)
        #expect(after.budget == before.budget)
    }
}
