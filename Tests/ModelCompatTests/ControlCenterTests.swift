import AppIntents
import Foundation
import Testing
import WidgetKit

@Suite("Controls and ControlCenter forwarding")
struct ControlCenterTests {
    @Test("with no host, ControlCenter reloads do nothing and currentControls() is empty")
    func unbound() async throws {
        let host = TestControlHost()
        ControlCenter.shared.reloadControls(ofKind: "com.example.focus")
        ControlCenter.shared.reloadAllControls()
        #expect(try await ControlCenter.shared.currentControls().isEmpty)
        // A host without the control capability is the same as none.
        let underBareHost = try await HostContext.withBinding(BareHost()) { () async throws -> [ControlInfo] in
            ControlCenter.shared.reloadAllControls()
            return try await ControlCenter.shared.currentControls()
        }
        #expect(underBareHost.isEmpty)
        #expect(host.reloadedKinds.isEmpty && host.reloadAllCount == 0)
    }

    @Test("a toggle's SetValueIntent writes the shared state its value provider reads, and asks for a reload")
    func toggleRoundTrip() async throws {
        let host = TestControlHost()
        try await HostContext.withBinding(host) {
            #expect(try await FocusValueProvider().currentValue() == false)
            let intent = ToggleFocusIntent()
            intent.value = true
            _ = try await intent.perform()
            #expect(try await FocusValueProvider().currentValue() == true)
        }
        #expect(FocusValueProvider().previewValue == false)
        #expect(host.reloadedKinds == ["com.example.focus.button"])
    }

    @Test("a button intent's reloadAllControls() reaches the bound host")
    func buttonReloadsAll() async throws {
        let host = TestControlHost()
        try await HostContext.withBinding(host) {
            let toggle = ToggleFocusIntent()
            toggle.value = true
            _ = try await toggle.perform()
            _ = try await EndAllSessionsIntent().perform()
            #expect(try await FocusValueProvider().currentValue() == false)
        }
        #expect(host.reloadAllCount == 1)
    }

    @Test("a configurable provider reads its configuration; currentControls() comes from the host")
    func configurableControls() async throws {
        // A let suffices: @Parameter is a class, so setting it does not mutate the intent.
        let configuration = TimerConfiguration()
        configuration.minutes = 10
        let host = TestControlHost(controls: [
            ControlInfo(kind: "com.example.timer", id: "c1", configurationIntent: configuration),
            ControlInfo(kind: "com.example.focus", id: "c2", configurationIntent: nil),
        ])
        host.suite.set(40, forKey: "minutesLeft")
        let controls = try await HostContext.withBinding(host) { try await ControlCenter.shared.currentControls() }
        #expect(controls.map(\.id) == ["c1", "c2"])
        let timer = try #require(controls[0].configurationIntent(of: TimerConfiguration.self))
        #expect(timer.minutes == 10)
        #expect(controls[1].configurationIntent(of: TimerConfiguration.self) == nil)
        #expect(TimerValueProvider().previewValue(configuration: timer) == 10)
        let value = try await HostContext.withBinding(host) {
            try await TimerValueProvider().currentValue(configuration: timer)
        }
        #expect(value == 10)
    }

    @Test("a widget push handler is handed the token and the placed widgets")
    func pushHandler() async throws {
        let host = TestControlHost()
        let token = Data([0x0a, 0xff, 0x01])
        HostContext.withBinding(host) {
            FocusPushHandler().pushTokenDidChange(
                WidgetPushInfo(token: token),
                widgets: [WidgetInfo(kind: "FocusWidget", family: .systemSmall, id: "w1", configurationIntent: nil)])
        }
        #expect(WidgetPushInfo(token: token).token == token)
        #expect(host.suite.object(forKey: "widgetPushToken") as? String == "0aff01")
        #expect(host.suite.object(forKey: "pushedKinds") as? [String] == ["FocusWidget"])
    }
}
