import Foundation
import Testing

extension DaemonTests {
    @Suite("/v1/stacks", .serialized)
    struct StacksEndpointTests {
        @Test("create, list, read, replace, delete")
        func lifecycle() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            try await placeWidgets(daemon)
            let created = try await daemon.request("POST", "/v1/stacks", json: #"{"id":"home","instances":["d","p"]}"#)
            #expect(created.status == 201)
            #expect(created.header("Location") == "/v1/stacks/home")
            #expect(created.json["instances"] as? [String] == ["d", "p"])
            #expect(created.json["createdAt"] as? String == "2026-03-01T09:00:00Z")
            #expect(try await daemon.request("GET", "/v1/stacks").objects("stacks").compactMap { $0["id"] as? String }
                    == ["home"])
            #expect(try await daemon.request("GET", "/v1/stacks/home").json["instances"] as? [String] == ["d", "p"])

            let replaced = try await daemon.request("PUT", "/v1/stacks/home", json: #"{"instances":["p"]}"#)
            #expect(replaced.status == 200)
            #expect(replaced.json["instances"] as? [String] == ["p"])

            #expect(try await daemon.request("DELETE", "/v1/stacks/home").status == 204)
            let gone = try await daemon.request("GET", "/v1/stacks/home")
            expectRefusal(gone, status: 404, code: "unknown_stack")
            #expect(try await daemon.request("GET", "/v1/instances/p").status == 200)
        }

        @Test("the ranking: the top first, each score with its parts")
        func ranking() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            try await placeWidgets(daemon)
            _ = try await daemon.request("POST", "/v1/stacks", json: #"{"id":"home","instances":["d","p"]}"#)
            let tap = try await daemon.request("POST", "/v1/taps",
                                               json: #"{"url":"myapp://daily","instance":"d","source":"widgetURL"}"#)
            #expect(tap.status == 201)

            let response = try await daemon.request("GET", "/v1/stacks/home/ranking")
            #expect(response.status == 200)
            #expect(response.json["evaluatedAt"] as? String == "2026-03-01T09:00:00Z")
            #expect(response.json["top"] as? String == "p")
            #expect((response.json["decision"] as? [String: Any])?["outcome"] as? String == "initial")
            let instances = response.objects("instances")
            #expect(instances.compactMap { $0["instance"] as? String } == ["p", "d"])
            let progress = try #require(instances.first?["parts"] as? [String: Any])
            #expect(progress["entryState"] as? String == "active")
            #expect(progress["entryNormalised"] as? Double == 1)
            #expect(instances.first?["total"] as? Double == 1)
            let daily = try #require(instances.last?["parts"] as? [String: Any])
            #expect(daily["entryState"] as? String == "none")
            #expect(daily["tapCount"] as? Int == 1)
            #expect(daily["taps"] as? Double == 0.5)
            #expect(instances.last?["total"] as? Double == 0.25)
            #expect(instances.last?["position"] as? Int == 0)
            #expect((response.json["policy"] as? [String: Any])?["hysteresisMargin"] as? Double == 0.15)

            // The top left the stack: the next ranking picks a new one at once.
            _ = try await daemon.request("PUT", "/v1/stacks/home", json: #"{"instances":["d"]}"#)
            let after = try await daemon.request("GET", "/v1/stacks/home/ranking?at=2026-03-01T09:05:00Z")
            #expect(after.json["top"] as? String == "d")
        }

        static let refusals: [(method: String, path: String, body: String?, status: Int, code: String)] = [
            ("POST", "/v1/stacks", #"{"id":"home","instances":["d","ghost"]}"#, 422, "unknown_instance"),
            ("POST", "/v1/stacks", #"{"id":"home","instances":["d","d"]}"#, 422, "already_in_stack"),
            ("POST", "/v1/stacks", #"{"id":"../home"}"#, 400, "invalid_field"),
            ("POST", "/v1/stacks", #"{"id":"home","widgets":[]}"#, 400, "unknown_field"),
            ("POST", "/v1/stacks", #"{"id":"work"}"#, 409, "duplicate_stack"),
            ("PUT", "/v1/stacks/work", #"{"instances":["ghost"]}"#, 422, "unknown_instance"),
            ("PUT", "/v1/stacks/work", #"{"instances":"p"}"#, 400, "invalid_field"),
            ("PUT", "/v1/stacks/nope", #"{"instances":[]}"#, 404, "unknown_stack"),
            ("DELETE", "/v1/stacks/nope", nil, 404, "unknown_stack"),
            ("GET", "/v1/stacks/nope/ranking", nil, 404, "unknown_stack"),
            ("GET", "/v1/stacks/work/ranking?at=soon", nil, 422, "invalid_date"),
        ]

        @Test("bad stack requests are refused, and no stack changes", arguments: refusals)
        func refused(method: String, path: String, body: String?, status: Int, code: String) async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            try await placeWidgets(daemon)
            _ = try await daemon.request("POST", "/v1/stacks", json: #"{"id":"work","instances":["p"]}"#)
            let before = try await daemon.request("GET", "/v1/stacks").text
            let response = try await daemon.request(method, path, json: body)
            expectRefusal(response, status: status, code: code)
            #expect(try await daemon.request("GET", "/v1/stacks").text == before)
        }

        private func placeWidgets(_ daemon: InProcessDaemon) async throws {
            for body in [#"{"kind":"Daily","family":"systemSmall","id":"d"}"#,
                         #"{"kind":"ProjectProgress","family":"systemSmall","parameters":{"project":"proj-thesis"},"id":"p"}"#] {
                #expect(try await daemon.request("POST", "/v1/instances", json: body).status == 201)
            }
        }
    }
}
