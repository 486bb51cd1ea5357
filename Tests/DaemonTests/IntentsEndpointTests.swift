import Foundation
import SharedState
import Testing

extension DaemonTests {
    @Suite("/v1/intents", .serialized)
    struct IntentsEndpointTests {
        static let complete = "/v1/intents/CompleteTaskIntent/perform"
        static let toggle = "/v1/intents/ToggleFavoriteIntent/perform"

        @Test("the intents and their parameters")
        func list() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let list = try await daemon.request("GET", "/v1/intents")
            #expect(list.status == 200)
            #expect(list.objects("intents").compactMap { $0["name"] as? String }
                    == ["CompleteTaskIntent", "SetTaskCompletedIntent", "ToggleFavoriteIntent",
                        // The controls' intents, added by the runner: a host may perform them without a control.
                        "SetFocusModeIntent", "FocusProjectIntent", "EndFocusIntent"])
            let one = try await daemon.request("GET", "/v1/intents/SetTaskCompletedIntent")
            #expect(one.json["title"] as? String == "Set Task Completed")
            let parameters = one.objects("parameters")
            #expect(parameters.compactMap { $0["name"] as? String } == ["taskId", "completed"])
            #expect(parameters.last?["type"] as? String == "bool")
            #expect(parameters.last?["default"] as? Bool == true)
            let missing = try await daemon.request("GET", "/v1/intents/Nope")
            expectRefusal(missing, status: 404, code: "unknown_intent")
        }

        @Test("a perform commits its change, reloads the tapped widget and is counted")
        func perform() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            try await placeTaskList(daemon)
            #expect(try await remaining(daemon) == 3)

            let response = try await daemon.request("POST", Self.complete,
                                                    json: #"{"parameters":{"taskId":"task-3"},"instance":"tasks"}"#)
            #expect(response.status == 200)
            #expect(response.json["dryRun"] as? Bool == false)
            #expect(response.json["value"] as? Int == 2)
            #expect(response.header("Idempotent-Replayed") == nil)
            let rows = (response.json["changes"] as? [String: Any])?["rows"] as? [[String: Any]] ?? []
            let row = try #require(rows.first { $0["table"] as? String == "tasks" })
            #expect(row["operation"] as? String == "update")
            #expect((row["old"] as? [String: Any])?["completed"] as? Int == 0)
            #expect((row["new"] as? [String: Any])?["completed"] as? Int == 1)
            #expect(response.objects("plannedReloads").first?["instanceId"] as? String == "tasks")
            #expect(response.objects("plannedReloads").first?["reason"] as? String == "interactive-intent")
            #expect(response.objects("reloads").contains { ($0["instanceIds"] as? [String])?.contains("tasks") == true })

            #expect(try completed(daemon, "task-3") == 1)
            #expect(try await remaining(daemon) == 2)
            #expect(try await performedCount(daemon) == 1)
        }

        @Test("a dry run reports the change and changes nothing")
        func dryRun() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            try await placeTaskList(daemon)
            let response = try await daemon.request(
                "POST", Self.complete + "?dryRun=true", json: #"{"parameters":{"taskId":"task-3"},"instance":"tasks"}"#,
                headers: [("Idempotency-Key", "dry-1")])
            #expect(response.status == 200)
            #expect(response.json["dryRun"] as? Bool == true)
            #expect(response.json["idempotency"] == nil)
            let rows = (response.json["changes"] as? [String: Any])?["rows"] as? [[String: Any]] ?? []
            #expect(rows.contains { $0["table"] as? String == "tasks" })
            #expect(response.objects("plannedReloads").first?["instanceId"] as? String == "tasks")
            #expect(response.objects("reloads").isEmpty)

            #expect(try completed(daemon, "task-3") == 0)
            #expect(try await remaining(daemon) == 3)
            #expect(try await performedCount(daemon) == 0)
            // The key was not stored by the dry run: a real perform with it runs.
            let real = try await daemon.request("POST", Self.complete, json: #"{"parameters":{"taskId":"task-3"}}"#,
                                                headers: [("Idempotency-Key", "dry-1")])
            #expect(real.header("Idempotent-Replayed") == "false")
            #expect(try completed(daemon, "task-3") == 1)
        }

        @Test("a retry with the same key replays the first outcome; another request with it is 409")
        func idempotency() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let before = try favorites(daemon)
            let body = #"{"parameters":{"itemID":"task-5"}}"#
            let first = try await daemon.request("POST", Self.toggle, json: body, headers: [("Idempotency-Key", "k-1")])
            #expect(first.status == 200)
            #expect(first.header("Idempotent-Replayed") == "false")
            let toggled = try favorites(daemon)
            #expect(toggled != before)

            let retry = try await daemon.request("POST", Self.toggle, json: body, headers: [("Idempotency-Key", "k-1")])
            #expect(retry.status == 200)
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect((retry.json["idempotency"] as? [String: Any])?["replayed"] as? Bool == true)
            #expect(retry.json["value"] as? Bool == first.json["value"] as? Bool)
            #expect(try favorites(daemon) == toggled)
            #expect(try await performedCount(daemon) == 1)

            let other = try await daemon.request("POST", Self.toggle, json: #"{"parameters":{"itemID":"task-6"}}"#,
                                                 headers: [("Idempotency-Key", "k-1")])
            expectRefusal(other, status: 409, code: "idempotency_key_reused")
            #expect(try favorites(daemon) == toggled)
            #expect(try await performedCount(daemon) == 1)
        }

        static let refusals: [(path: String, body: String, key: String?, status: Int, code: String, parameter: String?)] = [
            ("/v1/intents/Nope/perform", #"{"parameters":{}}"#, nil, 404, "unknown_intent", nil),
            (complete, #"{"parameters":{"taskId":"task-3","colour":"red"}}"#, nil, 422, "unknown_parameter", "colour"),
            (complete, #"{"parameters":{}}"#, nil, 422, "missing_parameter", "taskId"),
            (complete, #"{"parameters":{"taskId":7}}"#, nil, 422, "invalid_parameter", "taskId"),
            ("/v1/intents/SetTaskCompletedIntent/perform", #"{"parameters":{"taskId":"task-3","completed":"yes"}}"#,
             nil, 422, "invalid_parameter", "completed"),
            (complete, #"{"parameters":{"taskId":"task-999"}}"#, nil, 422, "intent_failed", nil),
            (complete, #"{"parameters":{"taskId":"task-3"},"instance":"ghost"}"#, nil, 422, "unknown_instance", nil),
            (complete, #"{"parameters":{"taskId":"task-3"},"instance":"../x"}"#, nil, 400, "invalid_field", nil),
            (complete, #"{"parameters":{"taskId":"task-3"},"tapped":"x"}"#, nil, 400, "unknown_field", nil),
            (complete, #"{"parameters":["task-3"]}"#, nil, 400, "invalid_field", nil),
            (complete, #"{"parameters":{"taskId":"task-3"}"#, nil, 400, "malformed_json", nil),
            (complete + "?dryRun=yes", #"{"parameters":{"taskId":"task-3"}}"#, nil, 400, "invalid_query", nil),
            (complete, #"{"parameters":{"taskId":"task-3"}}"#, String(repeating: "k", count: 256), 400,
             "invalid_header", nil),
        ]

        @Test("each bad perform is refused with its code, and nothing changes", arguments: refusals)
        func refused(path: String, body: String, key: String?, status: Int, code: String, parameter: String?)
            async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let response = try await daemon.request("POST", path, json: body,
                                                    headers: key.map { [("Idempotency-Key", $0)] } ?? [])
            expectRefusal(response, status: status, code: code)
            if let parameter {
                #expect((response.json["detail"] as? [String: Any])?["parameter"] as? String == parameter)
            }
            #expect(try completed(daemon, "task-3") == 0)
            #expect(try await performedCount(daemon) == 0)
        }

        private func placeTaskList(_ daemon: InProcessDaemon) async throws {
            let placed = try await daemon.request("POST", "/v1/instances", json: """
                {"kind":"TaskList","family":"systemMedium","parameters":{"project":"proj-launch"},"id":"tasks"}
                """)
            #expect(placed.status == 201)
        }

        /// The open tasks the task-list widget shows now.
        private func remaining(_ daemon: InProcessDaemon) async throws -> Int? {
            let entry = try await daemon.request("GET", "/v1/instances/tasks/entry")
            return ((entry.json["entry"] as? [String: Any])?["content"] as? [String: Any])?["remaining"] as? Int
        }

        /// The task's `completed` column, read from the container's SQLite file.
        private func completed(_ daemon: InProcessDaemon, _ task: String) throws -> Int? {
            try daemon.container.store.read { db in
                try db.scalar("SELECT completed FROM tasks WHERE id = ?", [.text(task)], as: Int.self)
            }
        }

        private func favorites(_ daemon: InProcessDaemon) throws -> [String] {
            try daemon.container.store.read { db in
                try db.query("SELECT item_id FROM favorites ORDER BY item_id").compactMap { $0.string("item_id") }
            }
        }

        private func performedCount(_ daemon: InProcessDaemon) async throws -> Double? {
            let text = try await daemon.request("GET", "/metrics").text
            let line = text.split(separator: "\n").first { $0.hasPrefix("widgethost_intents_performed_total ") }
            return line.flatMap { Double($0.split(separator: " ").last ?? "") }
        }
    }
}
