import Foundation
import Testing

extension DaemonTests {
    @Suite("/v1/activities/{id}/states and /v1/push/{decisions,outbox,policies}", .serialized)
    struct PlannerEndpointTests {
        /// A started courier activity whose update token is registered with the planner's registry.
        static func registeredCourier(_ daemon: InProcessDaemon) async throws -> String {
            let started = try await daemon.startCourier()
            let id = try #require(started["id"] as? String)
            let token = try #require(started["pushToken"] as? String)
            let registered = try await daemon.request("PUT", "/v1/push/tokens/activities/\(id)",
                                                      json: #"{"token":"\#(token)"}"#)
            #expect(registered.status == 200, "\(registered.text)")
            // A second later: the device ignores a push not later than the activity's start.
            try await daemon.advance(seconds: 1)
            return id
        }

        @Test("state changes go through the planner and the outbox to the device; the clock flushes held states")
        func loop() async throws {
            let daemon = try InProcessDaemon.withActivities()
            defer { Task { await daemon.stop() } }
            let id = try await Self.registeredCourier(daemon)

            let first = try await daemon.request("POST", "/v1/activities/\(id)/states",
                                                 json: #"{"state":{"minutesAway":15,"stage":"cooking"}}"#)
            #expect(first.status == 200, "\(first.text)")
            #expect(first.json["kind"] as? String == "sent")
            #expect(first.json["priority"] as? Int == 5)
            let delivered = try await daemon.request("POST", "/v1/push/outbox/deliver")
            #expect(delivered.objects("deliveries").map { $0["result"] as? String } == ["applied"])

            let held = try await daemon.request("POST", "/v1/activities/\(id)/states",
                                                json: #"{"state":{"minutesAway":12,"stage":"on the way"}}"#)
            #expect(held.json["kind"] as? String == "deferred_by_interval")
            #expect(held.json["dueAt"] as? String == "2026-03-01T09:01:01Z")
            try await daemon.advance(seconds: 120)
            let outbox = try await daemon.request("GET", "/v1/push/outbox?status=pending")
            let pending = outbox.objects("pushes")
            #expect(pending.count == 1)
            let payload = pending.first?["payload"] as? [String: Any]
            let aps = payload?["aps"] as? [String: Any]
            // Flushed when it came due on the way, not at the end of the advance.
            #expect(aps?["timestamp"] as? Int == apnsTime(61))
            #expect(aps?["stale-date"] as? Int == apnsTime(61 + 600))
            #expect((pending.first?["headers"] as? [String: String])?["apns-priority"] == "5")
            _ = try await daemon.request("POST", "/v1/push/outbox/deliver")
            let screen = try await daemon.request("GET", "/v1/activities/\(id)/screen")
            let content = screen.json["content"] as? [String: Any]
            #expect((content?["state"] as? [String: Any])?["stage"] as? String == "on the way")

            let policy = try await daemon.request("PUT", "/v1/push/policies/CourierAttributes", json: """
                {"completion":[{"pointer":"/stage","values":["delivered"]}],"minimumInterval":30}
                """)
            #expect(policy.status == 200, "\(policy.text)")
            #expect((policy.json["policy"] as? [String: Any])?["expectedInterval"] as? Double == 300)
            let done = try await daemon.request("POST", "/v1/activities/\(id)/states",
                                                json: #"{"state":{"minutesAway":0,"stage":"delivered"}}"#)
            #expect(done.json["kind"] as? String == "ended_by_completion")
            _ = try await daemon.request("POST", "/v1/push/outbox/deliver")
            let ended = try await daemon.request("GET", "/v1/activities/\(id)")
            #expect(ended.json["state"] as? String == "ended")

            let decisions = try await daemon.request("GET", "/v1/push/decisions?activity=\(id)")
            #expect(decisions.objects("decisions").map { $0["kind"] as? String }
                    == ["sent", "deferred_by_interval", "sent", "ended_by_completion"])
            let sentOnly = try await daemon.request("GET", "/v1/push/decisions?activity=\(id)&kind=sent&limit=1")
            #expect(sentOnly.objects("decisions").count == 1)
            let all = try await daemon.request("GET", "/v1/push/outbox")
            #expect(all.json["delivered"] as? Int == 3 && all.json["pending"] as? Int == 0)
        }

        @Test("bad requests answer a JSON error with a stable code and change nothing")
        func badInput() async throws {
            let daemon = try InProcessDaemon.withActivities()
            defer { Task { await daemon.stop() } }
            let id = try await Self.registeredCourier(daemon)
            let cases: [(String, String, String?, Int, String)] = [
                ("POST", "/v1/activities/nope/states", #"{"state":{}}"#, 404, "unknown_activity"),
                ("POST", "/v1/activities/\(id)/states", #"{"state":[1]}"#, 400, "invalid_field"),
                ("POST", "/v1/activities/\(id)/states", #"{"state":{},"extra":1}"#, 400, "unknown_field"),
                ("POST", "/v1/activities/\(id)/states", #"{"state":{},"attributesType":"Other"}"#, 409,
                 "attributes_type_mismatch"),
                ("POST", "/v1/activities/x/states", #"{"state":{},"attributesType":""}"#, 422, "invalid_identifier"),
                ("PUT", "/v1/push/policies/CourierAttributes", #"{"alert":[{"pointer":"stage","values":[]}]}"#, 422,
                 "invalid_policy"),
                ("PUT", "/v1/push/policies/CourierAttributes", #"{"endAfter":30000}"#, 422, "invalid_policy"),
                ("PUT", "/v1/push/policies/CourierAttributes", #"{"minimumInterval":"60"}"#, 400, "invalid_field"),
                ("GET", "/v1/push/decisions?kind=bogus", nil, 400, "invalid_query"),
                ("GET", "/v1/push/decisions?activity=", nil, 400, "invalid_query"),
                ("GET", "/v1/push/outbox?status=lost", nil, 400, "invalid_query"),
                ("GET", "/v1/push/outbox?limit=0", nil, 400, "invalid_query"),
            ]
            // One good submit first, so the type is registered and "nothing changed" has something to compare.
            let good = try await daemon.request("POST", "/v1/activities/\(id)/states", json: #"{"state":{"minutesAway":3,"stage":"a"}}"#)
            #expect(good.status == 200)
            for (method, path, body, status, code) in cases {
                let response = try await daemon.request(method, path, json: body)
                #expect(response.status == status, "\(method) \(path): \(response.text)")
                #expect(response.json["code"] as? String == code, "\(method) \(path): \(response.text)")
            }
            let decisions = try await daemon.request("GET", "/v1/push/decisions")
            #expect(decisions.objects("decisions").count == 1)
            let policy = try await daemon.request("GET", "/v1/push/policies/CourierAttributes")
            #expect((policy.json["policy"] as? [String: Any])?["endAfter"] as? Double == 27000)
        }
    }
}
