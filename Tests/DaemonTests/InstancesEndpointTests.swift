import Foundation
import Testing

extension DaemonTests {
    @Suite("/v1/instances")
    struct InstancesEndpointTests {
        @Test("place, list, read, reconfigure, remove")
        func lifecycle() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let placed = try await daemon.request("POST", "/v1/instances", json: """
                {"kind":"ProjectProgress","family":"systemSmall","parameters":{"project":"proj-thesis"},"id":"p1"}
                """)
            #expect(placed.status == 201)
            #expect(placed.header("Location") == "/v1/instances/p1")
            #expect(placed.json["id"] as? String == "p1")
            #expect((placed.json["resolvedParameters"] as? [String: Any])?["project"] as? String == "proj-thesis")
            #expect(placed.json["providerRuns"] as? Int == 1)
            let entry = placed.json["currentEntry"] as? [String: Any]
            #expect((entry?["content"] as? [String: Any])?["projectName"] as? String == "Thesis")
            let next = placed.json["nextReload"] as? [String: Any]
            #expect(next?["dueAt"] as? String == "2026-03-01T09:30:00Z")
            #expect(next?["reason"] as? String == "scheduled")

            let list = try await daemon.request("GET", "/v1/instances")
            #expect(list.objects("instances").compactMap { $0["id"] as? String } == ["p1"])

            let state = try await daemon.request("GET", "/v1/instances/p1?at=2026-03-01T12:00:00Z")
            #expect(state.status == 200)
            #expect(state.json["evaluatedAt"] as? String == "2026-03-01T12:00:00Z")

            let updated = try await daemon.request("PATCH", "/v1/instances/p1", json: #"{"parameters":{}}"#)
            #expect(updated.status == 200)
            #expect((updated.json["parameters"] as? [String: Any])?.isEmpty == true)

            let removed = try await daemon.request("DELETE", "/v1/instances/p1")
            #expect(removed.status == 204)
            #expect(removed.body.isEmpty)
            let gone = try await daemon.request("GET", "/v1/instances/p1")
            #expect(gone.status == 404)
            #expect(gone.errorCode == "unknown_instance")
            let goneAgain = try await daemon.request("DELETE", "/v1/instances/p1")
            #expect(goneAgain.errorCode == "unknown_instance")
        }

        @Test("timeline, entry at T and diagnostics")
        func subResources() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            _ = try await daemon.request("POST", "/v1/instances", json: #"{"kind":"Daily","family":"systemSmall","id":"d"}"#)
            let timeline = try await daemon.request("GET", "/v1/instances/d/timeline")
            #expect(timeline.status == 200)
            #expect(timeline.json["reloadPolicy"] as? String == "after")
            // The next local midnight in Paris (UTC+1 in March before the switch).
            #expect(timeline.json["reloadAfter"] as? String == "2026-03-01T23:00:00Z")
            #expect(timeline.objects("entries").count == 1)

            let entry = try await daemon.request("GET", "/v1/instances/d/entry?at=2026-03-01T20:00:00%2B01:00")
            #expect(entry.status == 200)
            #expect(entry.json["at"] as? String == "2026-03-01T19:00:00Z")
            let content = (entry.json["entry"] as? [String: Any])?["content"] as? [String: Any]
            #expect(content?["day"] as? String == "2026-03-01")

            let diagnostics = try await daemon.request("GET", "/v1/instances/d/diagnostics")
            #expect(diagnostics.status == 200)
            #expect(diagnostics.json["diagnostics"] is [Any])

            let badDate = try await daemon.request("GET", "/v1/instances/d/entry?at=yesterday")
            #expect(badDate.status == 422)
            #expect(badDate.errorCode == "invalid_date")
            for path in ["/v1/instances/nope/timeline", "/v1/instances/nope/entry", "/v1/instances/nope/diagnostics"] {
                let missing = try await daemon.request("GET", path)
                #expect(missing.status == 404, "\(path)")
                #expect(missing.errorCode == "unknown_instance", "\(path)")
            }
        }

        @Test("an instance's reloads: newest first, with reason, budget charge and outcome; only its own")
        func reloads() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            _ = try await daemon.request("POST", "/v1/instances", json: #"{"kind":"Daily","family":"systemSmall","id":"d"}"#)
            _ = try await daemon.request("POST", "/v1/instances",
                                         json: #"{"kind":"TaskList","family":"systemMedium","id":"t"}"#)
            #expect(try await daemon.request("POST", "/v1/kinds/Daily/reload").status == 200)
            #expect(try await daemon.request("POST", "/v1/clock/advance", json: #"{"seconds":86400}"#).status == 200)

            let response = try await daemon.request("GET", "/v1/instances/d/reloads")
            #expect(response.status == 200)
            let reloads = response.objects("reloads")
            #expect(reloads.map { $0["reason"] as? String } == ["scheduled", "kind-reload", "configuration-changed"])
            #expect(reloads.allSatisfy { ($0["instanceIds"] as? [String])?.contains("d") == true })
            #expect(reloads.map { ($0["chargedInstanceIds"] as? [String]) ?? [] } == [["d"], ["d"], []])
            #expect(reloads.allSatisfy { $0["outcome"] as? String == "accepted" })
            #expect(reloads.first?["ranAt"] as? String == "2026-03-01T23:00:00Z")
            let latest = try await daemon.request("GET", "/v1/instances/d/reloads?limit=1")
            #expect(latest.objects("reloads").map { $0["reason"] as? String } == ["scheduled"])
            let other = try await daemon.request("GET", "/v1/instances/t/reloads")
            #expect(other.objects("reloads").allSatisfy { ($0["instanceIds"] as? [String])?.contains("t") == true })
            #expect(!other.objects("reloads").contains { $0["reason"] as? String == "kind-reload" })

            expectRefusal(try await daemon.request("GET", "/v1/instances/nope/reloads"), status: 404,
                          code: "unknown_instance")
            for limit in ["0", "501", "ten", "-1"] {
                expectRefusal(try await daemon.request("GET", "/v1/instances/d/reloads?limit=\(limit)"), status: 400,
                              code: "invalid_query")
            }
        }

        @Test("engine refusals map to stable codes", arguments: [
            (#"{"kind":"Nope","family":"systemSmall"}"#, 404, "unknown_kind"),
            (#"{"kind":"Daily","family":"systemHuge"}"#, 400, "unknown_family"),
            (#"{"kind":"Daily","family":"accessoryInline"}"#, 422, "unsupported_family"),
            (#"{"kind":"ProjectProgress","family":"systemSmall","parameters":{"project":7.5}}"#, 422, "invalid_parameter"),
            (#"{"kind":"ProjectProgress","family":"systemSmall","parameters":{"colour":"red"}}"#, 422, "unknown_parameter"),
            (#"{"kind":"Daily","family":"systemSmall","id":"../x"}"#, 400, "invalid_field"),
        ])
        func refusals(body: String, status: Int, code: String) async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let response = try await daemon.request("POST", "/v1/instances", json: body)
            #expect(response.status == status)
            #expect(response.errorCode == code)
            #expect(response.isErrorBody)
        }

        @Test("a duplicate id is 409 duplicate_instance")
        func duplicate() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let body = #"{"kind":"Daily","family":"systemSmall","id":"same"}"#
            #expect(try await daemon.request("POST", "/v1/instances", json: body).status == 201)
            let again = try await daemon.request("POST", "/v1/instances", json: body)
            #expect(again.status == 409)
            #expect(again.errorCode == "duplicate_instance")
        }
    }
}
