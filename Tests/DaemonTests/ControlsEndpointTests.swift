import DemoWidgets
import Foundation
import SharedState
import Testing

extension DaemonTests {
    /// The demo's controls over real HTTP: the focus toggle, the project focus toggle (configured with a project)
    /// and the end-focus button.
    @Suite("/v1/controls", .serialized)
    struct ControlsEndpointTests {
        static let focus = DemoCatalog.Control.focus
        static let projectFocus = DemoCatalog.Control.projectFocus
        static let endFocus = DemoCatalog.Control.endFocus

        /// Places `focus`, `launch` (project focus on proj-launch) and `end`.
        static func placeAll(_ daemon: InProcessDaemon) async throws {
            for body in [
                #"{"kind":"\#(focus)","id":"focus"}"#,
                #"{"kind":"\#(projectFocus)","id":"launch","configuration":{"project":"proj-launch"}}"#,
                #"{"kind":"\#(endFocus)","id":"end"}"#,
            ] {
                let placed = try await daemon.request("POST", "/v1/controls", json: body)
                try #require(placed.status == 201, "\(placed.text)")
            }
        }

        static func focusMode(_ daemon: InProcessDaemon) throws -> PropertyListValue? {
            try daemon.container.suite().readValue(forKey: DemoSchema.focusModeKey)
        }

        static func reloadReasons(_ daemon: InProcessDaemon) async throws -> [String] {
            try await daemon.request("GET", "/v1/control-reloads").objects("reloads").compactMap { $0["reason"] as? String }
        }

        @Test("the control kinds: style, intent, and a configurable kind's parameters")
        func kinds() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let kinds = try await daemon.request("GET", "/v1/control-kinds").objects("kinds")
            #expect(kinds.compactMap { $0["kind"] as? String } == [Self.focus, Self.projectFocus, Self.endFocus])
            #expect(kinds.compactMap { $0["style"] as? String } == ["toggle", "toggle", "button"])
            #expect(kinds.compactMap { $0["configurable"] as? Bool } == [false, true, false])
            let configuration = kinds[1]["configuration"] as? [[String: Any]] ?? []
            #expect(configuration.compactMap { $0["name"] as? String } == ["project"])
            #expect(configuration.first?["type"] as? String == "entity")
        }

        @Test("toggle round trip: the state changes, the value reads back, the reloads are listed and logged")
        func toggleRoundTrip() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            try await Self.placeAll(daemon)
            #expect(try await daemon.request("GET", "/v1/controls/focus").json["value"] as? Bool == false)

            let toggled = try await daemon.request("POST", "/v1/controls/launch/toggle", json: #"{"value":true}"#)
            #expect(toggled.status == 200, "\(toggled.text)")
            #expect(toggled.json["control"] as? String == "launch")
            #expect(toggled.json["value"] as? Bool == true)
            let perform = toggled.json["perform"] as? [String: Any] ?? [:]
            #expect(perform["requestedControlReloads"] as? [String] == [Self.projectFocus, Self.focus])
            let reloads = perform["controlReloads"] as? [[String: Any]] ?? []
            #expect(reloads.compactMap { $0["controlId"] as? String } == ["launch", "focus"])
            #expect(reloads.compactMap { $0["reason"] as? String } == ["performed", "kind_reload"])
            #expect(reloads.compactMap { $0["value"] as? Bool } == [true, true])
            #expect(perform["intent"] as? String == "FocusProjectIntent")
            #expect((perform["parameters"] as? [String: Any])?["project"] as? String == "proj-launch")
            let keys = ((perform["changes"] as? [String: Any])?["keys"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
            #expect(Set(keys) == [DemoSchema.focusModeKey, DemoSchema.focusProjectKey])

            #expect(try Self.focusMode(daemon) == .bool(true))
            let listed = try await daemon.request("GET", "/v1/controls").objects("controls")
            #expect(listed.compactMap { $0["id"] as? String } == ["focus", "launch", "end"])
            #expect(listed.map { $0["value"] as? Bool } == [true, true, nil])
            #expect(try await Self.reloadReasons(daemon) == ["placed", "placed", "placed", "performed", "kind_reload"])

            // The button ends focus and reloads every control.
            let pressed = try await daemon.request("POST", "/v1/controls/end/press")
            #expect(pressed.status == 200, "\(pressed.text)")
            let pressedReloads = (pressed.json["perform"] as? [String: Any])?["controlReloads"] as? [[String: Any]] ?? []
            #expect(pressedReloads.compactMap { $0["controlId"] as? String } == ["end", "focus", "launch"])
            #expect(try Self.focusMode(daemon) == .bool(false))
            #expect(try await daemon.request("GET", "/v1/controls/launch").json["value"] as? Bool == false)
        }

        @Test("a failing intent changes nothing: 422 intent_failed, no state, no reload")
        func failingIntent() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            try await Self.placeAll(daemon)
            let before = try await Self.reloadReasons(daemon)
            let pressed = try await daemon.request("POST", "/v1/controls/end/press", json: "{}")
            expectRefusal(pressed, status: 422, code: "intent_failed")
            #expect(try Self.focusMode(daemon) == nil)
            #expect(try await Self.reloadReasons(daemon) == before)
        }

        @Test("a dry run reports the change and changes nothing")
        func dryRun() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            try await Self.placeAll(daemon)
            let response = try await daemon.request("POST", "/v1/controls/focus/toggle?dryRun=true",
                                                    json: #"{"value":true}"#, headers: [("Idempotency-Key", "dry")])
            #expect(response.status == 200)
            let perform = response.json["perform"] as? [String: Any] ?? [:]
            #expect(perform["dryRun"] as? Bool == true)
            #expect(perform["requestedControlReloads"] as? [String] == [Self.projectFocus])
            #expect((perform["controlReloads"] as? [Any])?.isEmpty == true)
            #expect(response.json["value"] == nil)
            #expect(try Self.focusMode(daemon) == nil)
            #expect(try await daemon.request("GET", "/v1/controls/focus").json["value"] as? Bool == false)
            #expect(try await Self.reloadReasons(daemon) == ["placed", "placed", "placed"])
        }

        @Test("a retry with the same Idempotency-Key replays the first outcome and runs nothing")
        func idempotentRetry() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            try await Self.placeAll(daemon)
            let first = try await daemon.request("POST", "/v1/controls/focus/toggle", json: #"{"value":true}"#,
                                                 headers: [("Idempotency-Key", "tap-1")])
            #expect(first.header("Idempotent-Replayed") == "false")
            _ = try await daemon.request("POST", "/v1/controls/focus/toggle", json: #"{"value":false}"#)
            let retry = try await daemon.request("POST", "/v1/controls/focus/toggle", json: #"{"value":true}"#,
                                                 headers: [("Idempotency-Key", "tap-1")])
            #expect(retry.status == 200)
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(((retry.json["perform"] as? [String: Any])?["controlReloads"] as? [Any])?.isEmpty == true)
            #expect(try Self.focusMode(daemon) == .bool(false))
            let reused = try await daemon.request("POST", "/v1/controls/focus/toggle", json: #"{"value":false}"#,
                                                  headers: [("Idempotency-Key", "tap-1")])
            expectRefusal(reused, status: 409, code: "idempotency_key_reused")
        }

        @Test("renewing the widget push token: the old one is ignored, control pushes to the new one reload controls")
        func renewAndControlPush() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            try await Self.placeAll(daemon)
            let old = try #require(try await daemon.request("GET", "/v1/device/widget-push-token").json["token"] as? String)
            let renewed = try await daemon.request("POST", "/v1/device/widget-push-token/renew")
            #expect(renewed.status == 200)
            let token = try #require(renewed.json["token"] as? String)
            #expect(token != old)
            #expect(try await daemon.request("GET", "/v1/device/widget-push-token").json["token"] as? String == token)
            let headers = [("apns-push-type", "controls"), ("apns-topic", "com.example.widgethost.push-type.controls")]
            let payload = #"{"aps":{"content-changed":true}}"#
            let stale = try await daemon.request("POST", "/v1/device/push?token=\(old)", json: payload, headers: headers)
            #expect(stale.json["applied"] as? Bool == false)
            #expect(stale.json["reason"] as? String == "unknown_token")
            let pushed = try await daemon.request("POST", "/v1/device/push?token=\(token)", json: payload, headers: headers)
            #expect(pushed.json["applied"] as? Bool == true)
            #expect(pushed.objects("controlReloads").compactMap { $0["controlId"] as? String } == ["focus", "launch", "end"])
            #expect(pushed.objects("controlReloads").allSatisfy { $0["reason"] as? String == "control_push" })
        }
    }
}
