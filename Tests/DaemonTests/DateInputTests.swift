import Foundation
import Testing

extension DaemonTests {
    @Suite("Dates that do not exist: 422 invalid_date naming the member, and nothing changes", .serialized)
    struct DateInputTests {
        static let cases: [(method: String, path: String, body: String?, field: String, place: String)] = [
            ("PUT", "/v1/clock", #"{"now":"2026-02-30T09:00:00Z"}"#, "now", "body"),
            ("PUT", "/v1/clock", #"{"now":"2026-11-24T25:00:00Z"}"#, "now", "body"),
            ("PUT", "/v1/clock", #"{"now":"2026-11-24T24:00:00Z"}"#, "now", "body"),
            ("PUT", "/v1/clock", #"{"now":"2016-12-31T23:59:60Z"}"#, "now", "body"),
            ("PUT", "/v1/clock", #"{"now":"2026-03-05T12:00:00+01:00"}"#, "now", "body"),
            ("PUT", "/v1/clock", #"{"now":"2200-01-01T00:00:00Z"}"#, "now", "body"),
            ("POST", "/v1/taps", #"{"url":"myapp://task/task-3","instance":"tasks","source":"link","at":"2026-02-30T10:00:00Z"}"#,
             "at", "body"),
            ("POST", "/v1/taps", #"{"url":"myapp://task/task-3","instance":"tasks","source":"link","at":"2026-11-24T24:30:00Z"}"#,
             "at", "body"),
            ("POST", "/v1/taps", #"{"url":"myapp://task/task-3","instance":"tasks","source":"link","at":"0000-01-01T00:00:00Z"}"#,
             "at", "body"),
            ("POST", "/v1/taps", #"{"taps":[{"url":"myapp://task/task-3","instance":"tasks","source":"link"},"#
                + #"{"url":"myapp://task/task-4","instance":"tasks","source":"link","at":"2026-04-31T10:00:00Z"}]}"#,
             "taps[1].at", "body"),
            ("GET", "/v1/stacks/home/ranking?at=2026-02-30T00:00:00Z", nil, "at", "query"),
            ("GET", "/v1/stacks/home/ranking?at=0000-01-01T00:00:00Z", nil, "at", "query"),
            ("GET", "/v1/instances/tasks?at=2026-02-29T12:00:00Z", nil, "at", "query"),
            ("GET", "/v1/instances/tasks/entry?at=2026-11-24T10:00:00.Z", nil, "at", "query"),
            ("GET", "/v1/instances/tasks/entry?at=2026-11-24T10:00:00Z%00", nil, "at", "query"),
            ("GET", "/v1/taps/report?from=2026-02-30T00:00:00Z", nil, "from", "query"),
            ("GET", "/v1/taps/report?to=2026-13-01T00:00:00Z", nil, "to", "query"),
            ("GET", "/v1/taps/unmatched?from=2026-06-31T00:00:00Z", nil, "from", "query"),
        ]

        @Test("each impossible date is refused", arguments: cases)
        func refused(method: String, path: String, body: String?, field: String, place: String) async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            try await placeTasksInStack(daemon)
            let before = try await snapshot(daemon)

            let response = try await daemon.request(method, path, json: body)
            expectRefusal(response, status: 422, code: "invalid_date")
            let detail = response.json["detail"] as? [String: Any]
            #expect(detail?["field"] as? String == field)
            #expect(detail?["in"] as? String == place)
            #expect(detail?["reason"] is String)
            #expect(detail?["offset"] is Int)

            #expect(try await snapshot(daemon) == before)
        }

        @Test("the message says which part is wrong")
        func message() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let response = try await daemon.request("PUT", "/v1/clock", json: #"{"now":"2026-02-30T09:00:00Z"}"#)
            #expect(response.json["message"] as? String
                == #"body now "2026-02-30T09:00:00Z" is not a date-time: day 30 does not exist in February 2026, "#
                + "which has 28 days at byte 8")
            #expect((response.json["detail"] as? [String: Any])?["value"] as? String == "2026-02-30T09:00:00Z")
        }

        @Test("the same dates, when they exist, are taken")
        func existing() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            try await placeTasksInStack(daemon)
            #expect(try await daemon.request("PUT", "/v1/clock", json: #"{"now":"2028-02-29T09:00:00Z"}"#).status == 200)
            let tap = try await daemon.request("POST", "/v1/taps", json:
                #"{"url":"myapp://task/task-3","instance":"tasks","source":"link","at":"2026-11-24T23:59:59.5+01:00"}"#)
            #expect(tap.status == 201)
            #expect(try await daemon.request("GET", "/v1/stacks/home/ranking?at=2028-02-29T00:00:00Z").status == 200)
            #expect(try await daemon.request("GET", "/v1/taps/report?from=2026-11-24T22:59:59Z").status == 200)
        }

        private func placeTasksInStack(_ daemon: InProcessDaemon) async throws {
            let placed = try await daemon.request("POST", "/v1/instances",
                                                  json: #"{"kind":"TaskList","family":"systemMedium","id":"tasks"}"#)
            #expect(placed.status == 201)
            let stack = try await daemon.request("POST", "/v1/stacks", json: #"{"id":"home","instances":["tasks"]}"#)
            #expect(stack.status == 201)
        }

        /// What a refused request must not change: the clock, the stored taps, the stack (its rotation record).
        private func snapshot(_ daemon: InProcessDaemon) async throws -> [String] {
            var texts: [String] = []
            for path in ["/v1/clock", "/v1/taps/report?groupBy=route", "/v1/stacks/home", "/v1/instances/tasks"] {
                texts.append(try await daemon.request("GET", path).text)
            }
            return texts
        }
    }
}
