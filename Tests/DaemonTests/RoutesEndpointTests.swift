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

        @Test("matches: every route that takes the URL, the winner first; none with a reason; a bad URL")
        func matches() async throws {
            let routes = try Self.copyOfDefaultRoutes()
            defer { try? FileManager.default.removeItem(at: routes) }
            try """
                route task.fallback
                    pattern  myapp://task/(?<rest>.+)
                    target   Tasks
                    example  myapp://task/archived/7
                """.write(to: routes.appendingPathComponent("zz-fallback.routes"), atomically: true, encoding: .utf8)
            let daemon = try InProcessDaemon(routesDirectory: routes)
            defer { Task { await daemon.stop() } }

            let both = try await daemon.request("POST", "/v1/routes/matches", json: #"{"url":"MYAPP://task/task-7?source=stack"}"#)
            #expect(both.status == 200)
            let matches = both.objects("matches")
            #expect(matches.map { $0["route"] as? String } == ["task.detail", "task.fallback"])
            #expect(matches.map { $0["parameters"] as? [String: String] } == [["id": "task-7"], ["rest": "task-7"]])
            #expect(matches.allSatisfy { $0["canonicalUrl"] as? String == "myapp://task/task-7?source=stack" })
            #expect(both.json["reason"] == nil)
            // The first is what /v1/routes/match answers.
            let first = try await daemon.request("POST", "/v1/routes/match", json: #"{"url":"MYAPP://task/task-7?source=stack"}"#)
            #expect(first.json["route"] as? String == "task.detail")

            let one = try await daemon.request("POST", "/v1/routes/matches", json: #"{"url":"myapp://task/archived/7"}"#)
            #expect(one.objects("matches").map { $0["route"] as? String } == ["task.fallback"])
            // The courier route takes Link taps only.
            let courier = #"{"url":"myapp://delivery/ORD-1234/courier","source":"widgetURL"}"#
            let none = try await daemon.request("POST", "/v1/routes/matches", json: courier)
            #expect(none.status == 200)
            #expect((none.json["matches"] as? [Any])?.isEmpty == true)
            #expect((none.json["reason"] as? String)?.hasPrefix("no route matches") == true)
            let bad = try await daemon.request("POST", "/v1/routes/matches", json: #"{"url":"myapp://task/%zz"}"#)
            #expect(bad.status == 422)
            #expect(bad.errorCode == "invalid_url")
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

        @Test("reload: a new file is picked up; a bad one is refused with every problem where it is, and the table stays")
        func reload() async throws {
            let routes = try Self.copyOfDefaultRoutes()
            defer { try? FileManager.default.removeItem(at: routes) }
            let daemon = try InProcessDaemon(routesDirectory: routes)
            defer { Task { await daemon.stop() } }
            let before = try await daemon.request("GET", "/v1/routes").objects("routes").count

            try """
                route settings.open
                    pattern  myapp://settings
                    target   Settings
                    example  myapp://settings
                """.write(to: routes.appendingPathComponent("settings.routes"), atomically: true, encoding: .utf8)
            let reloaded = try await daemon.request("POST", "/v1/routes/reload")
            #expect(reloaded.status == 200)
            #expect(reloaded.json["routes"] as? Int == before + 1)
            #expect(reloaded.json["generation"] as? Int == 2)
            #expect(reloaded.json["directory"] as? String == routes.path)
            let hit = try await daemon.request("POST", "/v1/routes/match", json: #"{"url":"myapp://settings"}"#)
            #expect(hit.json["route"] as? String == "settings.open")

            // Two problems in one file: an unclosed group (PCRE2's offset mapped into the file) and an unknown attribute.
            let bad = routes.appendingPathComponent("zz-bad.routes")
            try """
                route broken
                    pattern  myapp://broken/(?<id>[0-9]+
                    target   Broken
                    colour   blue
                    example  myapp://broken/1
                """.write(to: bad, atomically: true, encoding: .utf8)
            let refused = try await daemon.request("POST", "/v1/routes/reload")
            expectRefusal(refused, status: 422, code: "invalid_route_table")
            let detail = try #require(refused.json["detail"] as? [String: Any])
            let errors = try #require(detail["errors"] as? [[String: Any]])
            #expect(errors.map { $0["code"] as? String } == ["bad-pattern", "unknown-attribute"])
            #expect(errors.allSatisfy { $0["file"] as? String == bad.path })
            #expect(errors.map { $0["line"] as? Int } == [2, 4])
            #expect(errors.last?["column"] as? Int == 5)
            #expect((errors.first?["text"] as? String)?.hasPrefix("\(bad.path):2:") == true)
            #expect(detail["generation"] as? Int == 2)
            // Nothing changed: the same routes, the new one still routing, the log saying why.
            #expect(try await daemon.request("GET", "/v1/routes").objects("routes").count == before + 1)
            let still = try await daemon.request("POST", "/v1/routes/match", json: #"{"url":"myapp://settings"}"#)
            #expect(still.json["route"] as? String == "settings.open")
            #expect(daemon.logLines.all.contains { $0.contains(#""msg":"route reload refused""#) && $0.contains("zz-bad.routes:2:") })

            try FileManager.default.removeItem(at: bad)
            let again = try await daemon.request("POST", "/v1/routes/reload")
            #expect(again.status == 200)
            #expect(again.json["generation"] as? Int == 3)

            // A file that parses but whose example an earlier route takes: lint's error refuses it the same way.
            let shadowing = routes.appendingPathComponent("zz-shadow.routes")
            try """
                route settings.again
                    pattern  myapp://settings
                    target   SettingsAgain
                    example  myapp://settings
                """.write(to: shadowing, atomically: true, encoding: .utf8)
            let shadowed = try await daemon.request("POST", "/v1/routes/reload")
            expectRefusal(shadowed, status: 422, code: "invalid_route_table")
            let lintErrors = try #require((shadowed.json["detail"] as? [String: Any])?["errors"] as? [[String: Any]])
            #expect(lintErrors.map { $0["code"] as? String } == ["example-shadowed"])
            #expect(lintErrors.first?["file"] as? String == shadowing.path)
            #expect(lintErrors.first?["line"] as? Int == 4)
            #expect((lintErrors.first?["message"] as? String)?.contains("earlier route `settings.open`") == true)
            let unchanged = try await daemon.request("POST", "/v1/routes/match", json: #"{"url":"myapp://settings"}"#)
            #expect(unchanged.json["route"] as? String == "settings.open")
            #expect(try await daemon.request("GET", "/v1/routes").objects("routes").count == before + 1)
        }

        @Test("reload: a table not loaded from a directory cannot be reloaded (409), and stays")
        func reloadWithoutDirectory() async throws {
            let daemon = try InProcessDaemon(reloadableRoutes: false)
            defer { Task { await daemon.stop() } }
            let refused = try await daemon.request("POST", "/v1/routes/reload")
            expectRefusal(refused, status: 409, code: "routes_not_reloadable")
            let hit = try await daemon.request("POST", "/v1/routes/match", json: #"{"url":"myapp://task/task-7"}"#)
            #expect(hit.json["route"] as? String == "task.detail")
        }

        /// A copy of the source tree's `Routes/` in a fresh temporary directory.
        static func copyOfDefaultRoutes() throws -> URL {
            let copy = FileManager.default.temporaryDirectory.appendingPathComponent("routes-\(UUID().uuidString)")
            try FileManager.default.copyItem(at: InProcessDaemon.routesDirectory, to: copy)
            return copy
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
            #expect(refused.errorCode == "invalid_parameter")
            let detail = try #require(refused.json["detail"] as? [String: Any])
            #expect(detail["parameter"] as? String == "id")
            #expect(detail["value"] as? String == "not-a-task")
            #expect(detail["pattern"] as? String == "task-[0-9]+")
            // A query value its query rule does not take: the same code and shape, the query parameter named.
            let badQuery = try await daemon.request("POST", "/v1/routes/build", json: """
                {"route":"task.detail","parameters":{"id":"task-9"},"query":[{"name":"source","value":"fridge"}]}
                """)
            #expect(badQuery.status == 422)
            #expect(badQuery.errorCode == "invalid_parameter")
            #expect(badQuery.json["message"] as? String
                == #"query parameter `source`: the route's query rule `(homescreen|lockscreen|stack)` does not take the value "fridge""#)
            let queryDetail = try #require(badQuery.json["detail"] as? [String: Any])
            #expect(queryDetail.count == 3)
            #expect(queryDetail["parameter"] as? String == "source")
            #expect(queryDetail["value"] as? String == "fridge")
            #expect(queryDetail["pattern"] as? String == "(homescreen|lockscreen|stack)")
            let required = try await daemon.request("POST", "/v1/routes/build", json: #"{"route":"widget.open"}"#)
            #expect(required.status == 422)
            #expect(required.errorCode == "route_not_buildable")
            #expect((required.json["detail"] as? [String: Any])?["url"] as? String == "myapp://widget")
        }
    }
}
