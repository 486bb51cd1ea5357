import Foundation
import Testing
import WidgetHostServer

extension DaemonTests {
    @Suite("Bad input: 4xx with {code, message, detail}, never a crash, never a state change", .serialized)
    struct BadInputTests {
        static let cases: [(method: String, path: String, body: String, status: Int, code: String)] = [
            ("POST", "/v1/instances", #"{"kind":"Daily","family":"systemSmall""#, 400, "malformed_json"),
            ("POST", "/v1/instances", "", 400, "malformed_json"),
            ("POST", "/v1/instances", #"{"kind":"Daily","family":"systemSmall",}"#, 400, "malformed_json"),
            ("POST", "/v1/instances", #"{"kind":5,"family":"systemSmall"}"#, 400, "invalid_field"),
            ("POST", "/v1/instances", #"{"kind":"Daily","family":"systemSmall","parameters":[]}"#, 400, "invalid_field"),
            ("POST", "/v1/instances", #"{"kind":"Daily","family":"systemSmall","colour":"red"}"#, 400, "unknown_field"),
            ("POST", "/v1/instances", #"{"family":"systemSmall"}"#, 400, "missing_field"),
            ("POST", "/v1/instances", #"["Daily"]"#, 400, "invalid_field"),
            ("POST", "/v1/instances", #"{"kind":"Nope","family":"systemSmall"}"#, 404, "unknown_kind"),
            ("PATCH", "/v1/instances/p1", #"{"parameters":{"project":false}}"#, 422, "invalid_parameter"),
            ("PATCH", "/v1/instances/p1", #"{"parameters":{},"kind":"Daily"}"#, 400, "unknown_field"),
            ("PATCH", "/v1/instances/ghost", #"{"parameters":{}}"#, 404, "unknown_instance"),
            ("POST", "/v1/routes/match", #"{"url":42}"#, 400, "invalid_field"),
            ("POST", "/v1/routes/build", #"{"route":"task.detail","parameters":{"id":1}}"#, 400, "invalid_field"),
            ("PUT", "/v1/clock", #"{"now":"2026-03-05T12:00:00Z","zone":"UTC"}"#, 400, "unknown_field"),
            ("DELETE", "/v1/instances", "", 405, "method_not_allowed"),
            ("GET", "/v1/nothing", "", 404, "not_found"),
        ]

        @Test("each bad request is refused with its code and changes nothing", arguments: cases)
        func refused(method: String, path: String, body: String, status: Int, code: String) async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let placed = try await daemon.request("POST", "/v1/instances", json: """
                {"kind":"ProjectProgress","family":"systemSmall","parameters":{"project":"proj-thesis"},"id":"p1"}
                """)
            #expect(placed.status == 201)
            let before = try await snapshot(daemon)

            let response = try await daemon.request(method, path, json: body.isEmpty && method == "GET" ? nil : body)
            #expect(response.status == status)
            #expect(response.errorCode == code)
            #expect(response.isErrorBody)
            #expect(response.header("Content-Type") == "application/json")

            #expect(try await snapshot(daemon) == before)
            #expect(try await daemon.request("GET", "/healthz").status == 200)
        }

        @Test("a body over the documented cap is 413 before it is read")
        func oversized() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let padding = String(repeating: "x", count: WidgetHostAPI.maximumBodySize)
            let response = try await daemon.request(
                "POST", "/v1/instances", json: #"{"kind":"Daily","family":"systemSmall","id":"\#(padding)"}"#)
            #expect(response.status == 413)
            #expect(response.errorCode == "payload_too_large")
            #expect(try await daemon.request("GET", "/v1/instances").objects("instances").isEmpty)
        }

        /// The instances list and one instance's state: what a refused request must not change.
        private func snapshot(_ daemon: InProcessDaemon) async throws -> String {
            let list = try await daemon.request("GET", "/v1/instances")
            let state = try await daemon.request("GET", "/v1/instances/p1")
            let clock = try await daemon.request("GET", "/v1/clock")
            return list.text + state.text + clock.text
        }
    }
}
