import Foundation
import Testing

extension DaemonTests {
    @Suite("/v1/routes")
    struct RoutesEndpointTests {
        @Test("list the table")
        func list() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let response = try await daemon.request("GET", "/v1/routes")
            #expect(response.status == 200)
            let detail = try #require(response.objects("routes").first { $0["name"] as? String == "task.detail" })
            #expect(detail["target"] as? String == "TaskDetail")
            #expect(detail["parameters"] as? [String] == ["id"])
        }

        @Test("match: a route with parameters and query; no route; a bad URL; a bad context")
        func match() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let hit = try await daemon.request("POST", "/v1/routes/match",
                                               json: #"{"url":"MYAPP://Task/task-7/?source=stack"}"#)
            #expect(hit.status == 200)
            #expect(hit.json["matched"] as? Bool == true)
            #expect(hit.json["route"] as? String == "task.detail")
            #expect(hit.json["parameters"] as? [String: String] == ["id": "task-7"])
            #expect(hit.json["canonicalUrl"] as? String == "myapp://task/task-7?source=stack")

            let miss = try await daemon.request("POST", "/v1/routes/match", json: #"{"url":"myapp://nothing/here"}"#)
            #expect(miss.status == 200)
            #expect(miss.json["matched"] as? Bool == false)
            #expect(miss.json["reason"] is String)

            let bad = try await daemon.request("POST", "/v1/routes/match", json: #"{"url":"not a url"}"#)
            #expect(bad.status == 422)
            #expect(bad.errorCode == "invalid_url")

            let badSource = try await daemon.request("POST", "/v1/routes/match",
                                                     json: #"{"url":"myapp://task/task-7","source":"shake"}"#)
            #expect(badSource.status == 400)
            #expect(badSource.errorCode == "invalid_field")
        }

        @Test("explain names the winner and the other candidates")
        func explain() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let response = try await daemon.request("POST", "/v1/routes/explain",
                                                    json: #"{"url":"myapp://task/task-42","family":"systemMedium"}"#)
            #expect(response.status == 200)
            #expect(response.json["winner"] as? String == "task.detail")
            let candidates = response.objects("candidates")
            #expect(candidates.contains { $0["outcome"] as? String == "won" })
            let bad = try await daemon.request("POST", "/v1/routes/explain", json: #"{"url":""}"#)
            #expect(bad.errorCode == "invalid_url")
        }

        @Test("build a URL, and the build errors")
        func build() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let built = try await daemon.request("POST", "/v1/routes/build", json: """
                {"route":"task.detail","parameters":{"id":"task-9"},"query":[{"name":"source","value":"homescreen"}]}
                """)
            #expect(built.status == 200)
            #expect(built.json["url"] as? String == "myapp://task/task-9?source=homescreen")
            let unknown = try await daemon.request("POST", "/v1/routes/build", json: #"{"route":"nope"}"#)
            #expect(unknown.status == 404)
            #expect(unknown.errorCode == "unknown_route")
            let missing = try await daemon.request("POST", "/v1/routes/build", json: #"{"route":"task.detail"}"#)
            #expect(missing.status == 422)
            #expect(missing.errorCode == "missing_parameter")
            let refused = try await daemon.request("POST", "/v1/routes/build",
                                                   json: #"{"route":"task.detail","parameters":{"id":"not-a-task"}}"#)
            #expect(refused.status == 422)
            #expect(refused.errorCode == "route_not_buildable")
        }
    }
}
