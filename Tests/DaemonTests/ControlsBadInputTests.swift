import DemoWidgets
import Foundation
import Testing

extension DaemonTests {
    @Suite("Bad input on the control endpoints: a JSON error with its code, nothing changed", .serialized)
    struct ControlsBadInputTests {
        static let focus = DemoCatalog.Control.focus
        static let projectFocus = DemoCatalog.Control.projectFocus

        static let cases: [(method: String, path: String, body: String?, headers: [String], status: Int, code: String)] = [
            ("POST", "/v1/controls", #"{"kind":"\#(focus)""#, [], 400, "malformed_json"),
            ("POST", "/v1/controls", "", [], 400, "malformed_json"),
            ("POST", "/v1/controls", #"{"kind":7}"#, [], 400, "invalid_field"),
            ("POST", "/v1/controls", #"{"id":"x"}"#, [], 400, "missing_field"),
            ("POST", "/v1/controls", #"{"kind":"\#(focus)","colour":"red"}"#, [], 400, "unknown_field"),
            ("POST", "/v1/controls", #"{"kind":"\#(focus)","id":"bad id"}"#, [], 400, "invalid_field"),
            ("POST", "/v1/controls", #"{"kind":"\#(focus)","id":"x\u0000"}"#, [], 400, "invalid_field"),
            ("POST", "/v1/controls", #"{"kind":"com.example.nope"}"#, [], 422, "unknown_control_kind"),
            ("POST", "/v1/controls", #"{"kind":"\#(focus)","id":"focus"}"#, [], 409, "duplicate_control"),
            ("POST", "/v1/controls", #"{"kind":"\#(projectFocus)"}"#, [], 422, "invalid_configuration"),
            ("POST", "/v1/controls", #"{"kind":"\#(projectFocus)","configuration":{"project":"proj-nope"}}"#, [], 422,
             "invalid_configuration"),
            ("POST", "/v1/controls", #"{"kind":"\#(projectFocus)","configuration":{"project":1}}"#, [], 422,
             "invalid_configuration"),
            ("POST", "/v1/controls", #"{"kind":"\#(focus)","configuration":{"project":"proj-launch"}}"#, [], 422,
             "invalid_configuration"),
            ("POST", "/v1/controls", #"{"kind":"\#(focus)","configuration":[]}"#, [], 400, "invalid_field"),
            ("GET", "/v1/controls/ghost", nil, [], 404, "unknown_control"),
            ("DELETE", "/v1/controls/ghost", nil, [], 404, "unknown_control"),
            ("POST", "/v1/controls/ghost/toggle", #"{"value":true}"#, [], 404, "unknown_control"),
            ("POST", "/v1/controls/focus/toggle", "{}", [], 400, "missing_field"),
            ("POST", "/v1/controls/focus/toggle", #"{"value":"yes"}"#, [], 400, "invalid_field"),
            ("POST", "/v1/controls/focus/toggle", #"{"value":1}"#, [], 400, "invalid_field"),
            ("POST", "/v1/controls/focus/toggle", #"{"value":true,"extra":1}"#, [], 400, "unknown_field"),
            ("POST", "/v1/controls/focus/toggle?dryRun=maybe", #"{"value":true}"#, [], 400, "invalid_query"),
            ("POST", "/v1/controls/focus/toggle", #"{"value":true}"#, ["Idempotency-Key: a b"], 400, "invalid_header"),
            ("POST", "/v1/controls/end/toggle", #"{"value":true}"#, [], 409, "wrong_control_style"),
            ("POST", "/v1/controls/focus/press", nil, [], 409, "wrong_control_style"),
            ("POST", "/v1/controls/end/press", #"{"now":true}"#, [], 400, "unknown_field"),
            ("POST", "/v1/controls/end/press", "[]", [], 400, "invalid_field"),
            ("POST", "/v1/controls/ghost/press", nil, [], 404, "unknown_control"),
            ("PUT", "/v1/controls/focus", "{}", [], 405, "method_not_allowed"),
            ("POST", "/v1/control-kinds", "{}", [], 405, "method_not_allowed"),
            ("GET", "/v1/device/widget-push-token/renew", nil, [], 405, "method_not_allowed"),
            ("POST", "/v1/device/push?token=00ff", #"{"aps":{"content-changed":true}}"#,
             ["apns-push-type: controls", "apns-topic: com.example.widgethost.push-type.widgets"], 400, "bad_push"),
            ("POST", "/v1/device/push?token=00ff", #"{"aps":{"content-changed":true}}"#,
             ["apns-push-type: controls", "apns-topic: com.example.widgethost.push-type.controls", "apns-priority: 1"],
             400, "bad_push"),
            ("POST", "/v1/device/push", #"{"aps":{"content-changed":true}}"#,
             ["apns-push-type: controls", "apns-topic: com.example.widgethost.push-type.controls",
              "apns-channel-id: abc"], 400, "bad_push"),
        ]

        @Test("each bad request is refused with its code and changes nothing", arguments: cases)
        func refused(method: String, path: String, body: String?, headers: [String], status: Int,
                     code: String) async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            for placement in [#"{"kind":"\#(Self.focus)","id":"focus"}"#, #"{"kind":"\#(DemoCatalog.Control.endFocus)","id":"end"}"#] {
                try #require(try await daemon.request("POST", "/v1/controls", json: placement).status == 201)
            }
            let before = try await snapshot(daemon)

            let fields = headers.map { line -> (String, String) in
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                return (parts[0], parts[1])
            }
            let response = try await daemon.request(method, path, json: body, headers: fields)
            #expect(response.status == status, "\(response.text)")
            #expect(response.errorCode == code)
            #expect(response.isErrorBody)

            #expect(try await snapshot(daemon) == before)
        }

        /// Everything a refused request could have changed: the controls and their values, the reload log, the
        /// focus defaults, the widget push token.
        func snapshot(_ daemon: InProcessDaemon) async throws -> [String] {
            let suite = daemon.container.suite()
            return [
                try await daemon.request("GET", "/v1/controls").text,
                try await daemon.request("GET", "/v1/control-reloads").text,
                "\(String(describing: try suite.readValue(forKey: DemoSchema.focusModeKey)))",
                "\(String(describing: try suite.readValue(forKey: DemoSchema.focusProjectKey)))",
                try await daemon.request("GET", "/v1/device/widget-push-token").text,
            ]
        }
    }
}
