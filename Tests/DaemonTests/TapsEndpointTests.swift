import Foundation
import Testing

extension DaemonTests {
    @Suite("/v1/taps", .serialized)
    struct TapsEndpointTests {
        /// One routed tap, a suspicious Link tap, and two taps of a broken link, between 10:15 and 11:40 UTC.
        static let batch = """
            {"taps":[
              {"url":"myapp://task/task-3?source=homescreen","instance":"tasks","source":"widgetURL",
               "at":"2026-03-01T10:15:00Z"},
              {"url":"myapp://task/task-5","kind":"TaskList","family":"accessoryCircular","source":"link",
               "location":"lockScreen","at":"2026-03-01T10:20:00Z"},
              {"url":"myapp://tsk/task-3","kind":"TaskList","family":"systemMedium","source":"widgetURL",
               "at":"2026-03-01T11:30:00Z"},
              {"url":"myapp://tsk/task-3","kind":"TaskList","family":"systemMedium","source":"widgetURL",
               "at":"2026-03-01T11:40:00Z"}
            ]}
            """

        @Test("taps are recorded, routed, and visible in reports")
        func recordAndReport() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            try await placeTaskList(daemon)
            let one = try await daemon.request("POST", "/v1/taps", json: """
                {"url":"myapp://task/task-6","kind":"TaskList","family":"systemMedium","source":"widgetURL"}
                """)
            #expect(one.status == 201)
            #expect(one.objects("taps").first?["route"] as? String == "task.detail")
            let recorded = try await daemon.request("POST", "/v1/taps", json: Self.batch)
            #expect(recorded.status == 201)
            let taps = recorded.objects("taps")
            #expect(taps.map { $0["matched"] as? Bool } == [true, true, false, false])
            #expect(taps[0]["kind"] as? String == "TaskList")
            #expect(taps[0]["family"] as? String == "systemMedium")
            #expect(taps[1]["diagnostic"] as? String == "link-on-family-without-links")
            #expect(taps[2]["route"] == nil)

            let byRoute = try await daemon.request("GET", "/v1/taps/report?from=2026-03-01T10:00:00Z")
            #expect(byRoute.status == 200)
            #expect(byRoute.json["totalTaps"] as? Int == 4)
            #expect(byRoute.json["totalSuspicious"] as? Int == 1)
            let rows = byRoute.objects("rows").map { ($0["route"] as? String ?? "", $0["taps"] as? Int ?? 0) }
            #expect(rows.map(\.0) == ["(unmatched)", "task.detail"])
            #expect(rows.map(\.1) == [2, 2])

            let hourly = try await daemon.request(
                "GET", "/v1/taps/report?from=2026-03-01T10:00:00Z&groupBy=source,location&bucket=hour"
                    + "&timeZone=Europe/Paris")
            #expect(hourly.json["groupBy"] as? [String] == ["source", "location"])
            let buckets = hourly.objects("rows").map { "\($0["bucket"] ?? "") \($0["source"] ?? "") \($0["taps"] ?? "")" }
            #expect(buckets == ["2026-03-01T11:00 link 1", "2026-03-01T11:00 widgetURL 1",
                                "2026-03-01T12:00 widgetURL 2"])

            let csv = try await daemon.request("GET", "/v1/taps/report?from=2026-03-01T10:00:00Z&format=csv")
            #expect(csv.header("Content-Type") == "text/csv; charset=utf-8")
            #expect(csv.text == "route,taps,suspicious\r\n(unmatched),2,0\r\ntask.detail,2,1\r\n")
            let accepted = try await daemon.request("GET", "/v1/taps/report?from=2026-03-01T10:00:00Z",
                                                    headers: [("Accept", "text/csv")])
            #expect(accepted.text == csv.text)
        }

        @Test("reports and charts keep only the taps the column filters name")
        func filters() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            try await placeTaskList(daemon)
            #expect(try await daemon.request("POST", "/v1/taps", json: Self.batch).status == 201)
            let widgetURL = try await daemon.request("GET", "/v1/taps/report?source=widgetURL&groupBy=route,source")
            #expect(widgetURL.status == 200)
            #expect(widgetURL.json["totalTaps"] as? Int == 3)
            #expect(widgetURL.objects("rows").allSatisfy { $0["source"] as? String == "widgetURL" })
            let unmatched = try await daemon.request("GET", "/v1/taps/report?route=(unmatched)&groupBy=family")
            #expect(unmatched.objects("rows").map { "\($0["family"] ?? "") \($0["taps"] ?? "")" } == ["systemMedium 2"])
            let combined = try await daemon.request(
                "GET", "/v1/taps/report?route=task.detail&family=accessoryCircular&location=lockScreen&groupBy=")
            #expect(combined.json["totalTaps"] as? Int == 1)
            let none = try await daemon.request("GET", "/v1/taps/report?kind=Daily")
            #expect(none.json["totalTaps"] as? Int == 0)
            #expect(none.objects("rows").isEmpty)

            // The heat map counts what the filtered report counts, by local hour and weekday (1 March 2026 is a
            // Sunday; 10:15 and 11:30 UTC are 11 and 12 in Paris).
            let heatMap = try await daemon.request("GET", "/v1/taps/heatmap.svg?source=widgetURL&timeZone=Europe/Paris")
            #expect(heatMap.status == 200)
            #expect(heatMap.header("Content-Type") == "image/svg+xml; charset=utf-8")
            let cells = heatMap.text.matches(of: /data-weekday="(\w+)" data-hour="(\d+)" data-taps="([1-9]\d*)"/)
                .map { "\($0.output.1) \($0.output.2) \($0.output.3)" }
            #expect(cells == ["Sun 11 1", "Sun 12 2"])
            #expect(heatMap.text.contains("Europe/Paris"))
            let series = try await daemon.request("GET", "/v1/taps/series.svg?route=task.detail&bucket=hour")
            #expect(series.status == 200)
            #expect(series.text.contains(#"data-route="task.detail""#))
            #expect(!series.text.contains(#"data-route="(unmatched)""#))
        }

        @Test("a filter that cannot match is refused, naming the parameter", arguments: [
            "source=tap", "location=desk", "route=", "kind=" + String(repeating: "k", count: 129), "family=a%00b",
        ])
        func badFilter(_ query: String) async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            for path in ["/v1/taps/report", "/v1/taps/heatmap.svg", "/v1/taps/series.svg"] {
                let response = try await daemon.request("GET", path + "?" + query)
                expectRefusal(response, status: 400, code: "invalid_query")
                let name = String(query.prefix { $0 != "=" })
                #expect((response.json["detail"] as? [String: Any])?["parameter"] as? String == name)
            }
        }

        @Test("broken links are listed with the route they probably meant")
        func unmatched() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            try await placeTaskList(daemon)
            #expect(try await daemon.request("POST", "/v1/taps", json: Self.batch).status == 201)
            let response = try await daemon.request("GET", "/v1/taps/unmatched?limit=5")
            #expect(response.status == 200)
            let urls = response.objects("urls")
            #expect(urls.count == 1)
            #expect(urls.first?["url"] as? String == "myapp://tsk/task-3")
            #expect(urls.first?["taps"] as? Int == 2)
            #expect(urls.first?["lastTapped"] as? String == "2026-03-01T11:40:00Z")
            let nearest = urls.first?["nearestRoute"] as? [String: Any]
            #expect(nearest?["route"] is String)
            #expect(nearest?["explanation"] is String)
        }

        static let refusals: [(method: String, path: String, body: String?, status: Int, code: String)] = [
            ("POST", "/v1/taps", #"{"taps":[{"url":"myapp://task/task-3","instance":"tasks","source":"widgetURL"},"#
                + #"{"url":"myapp://task/task-4","instance":"tasks","source":"finger"}]}"#, 400, "invalid_field"),
            ("POST", "/v1/taps", #"{"taps":[]}"#, 400, "invalid_field"),
            ("POST", "/v1/taps", #"{"url":"","instance":"tasks","source":"link"}"#, 400, "invalid_field"),
            ("POST", "/v1/taps", #"{"url":"myapp://x","instance":"tasks","source":"link","hand":"left"}"#, 400,
             "unknown_field"),
            ("POST", "/v1/taps", #"{"url":"myapp://x","instance":"tasks","source":"link","at":"noon"}"#, 422,
             "invalid_date"),
            ("POST", "/v1/taps", #"{"taps":[{"url":"myapp://task/task-3","instance":"tasks","source":"link"},"#
                + #"{"url":"myapp://task/task-4","instance":"ghost","source":"link"}]}"#, 422, "unknown_instance"),
            ("POST", "/v1/taps", #"{"url":"myapp://task/task-3","kind":"TaskList","source":"link"}"#, 422,
             "tap_widget_unknown"),
            ("GET", "/v1/taps/report?groupBy=colour", nil, 400, "invalid_query"),
            ("GET", "/v1/taps/report?bucket=week", nil, 400, "invalid_query"),
            ("GET", "/v1/taps/report?timeZone=Mars/Base", nil, 400, "invalid_query"),
            ("GET", "/v1/taps/report?format=xml", nil, 400, "invalid_query"),
            ("GET", "/v1/taps/report?from=yesterday", nil, 422, "invalid_date"),
            ("GET", "/v1/taps/unmatched?limit=0", nil, 400, "invalid_query"),
            ("GET", "/v1/taps/unmatched?limit=ten", nil, 400, "invalid_query"),
        ]

        @Test("bad taps and queries are refused, and no tap is stored", arguments: refusals)
        func refused(method: String, path: String, body: String?, status: Int, code: String) async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            try await placeTaskList(daemon)
            let response = try await daemon.request(method, path, json: body)
            expectRefusal(response, status: status, code: code)
            let report = try await daemon.request("GET", "/v1/taps/report")
            #expect(report.json["totalTaps"] as? Int == 0)
        }

        private func placeTaskList(_ daemon: InProcessDaemon) async throws {
            let placed = try await daemon.request("POST", "/v1/instances",
                                                  json: #"{"kind":"TaskList","family":"systemMedium","id":"tasks"}"#)
            #expect(placed.status == 201)
        }
    }
}
