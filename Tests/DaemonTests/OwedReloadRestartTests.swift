import Foundation
import HTTPTestSupport
import ProcessTestSupport
import SharedState
import Testing

extension DaemonTests {
    /// The daemon started on the files of a tap whose process was SIGKILLed between its commit and its reloads
    /// (`intents-crashperformer tap`): it runs the owed reloads before it answers, so the tapped task list already
    /// shows the completed task, and the client's retry is a replay. A perform's reloads are marked done by the time
    /// the daemon has stopped.
    @Suite("Owed reloads across a daemon restart", .serialized)
    struct OwedReloadRestartTests {
        @Test(.timeLimit(.minutes(1)))
        func theRestartedDaemonServesTheTappedWidgetsNewState() async throws {
            let directory = try DaemonProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let data = directory.appendingPathComponent("data")
            let child = try await FinishedChild.run(try DaemonProcess.binary(named: "intents-crashperformer"),
                                                    ["tap", data.path, "in-tapped-reload"])
            try #require(child.reason == .uncaughtSignal, "the performer did not kill itself: \(child.standardError)")

            // The performer's clock: the test harness's default start, in UTC.
            let daemon = try await DaemonProcess(["--data-dir", data.path, "--clock", "virtual",
                                                  "--clock-start", "2024-05-01T09:00:00Z", "--time-zone", "UTC"],
                                                 logs: directory)
            let entry = try await daemon.request("GET", "/v1/instances/tasks/entry")
            let content = (entry.json["entry"] as? [String: Any])?["content"] as? [String: Any]
            let shown = (content?["tasks"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(shown == ["task-5", "task-6"], "task-3 was completed by the tap")

            let retry = try await RawHTTPClient(daemon.address).request(
                "POST", "/v1/intents/CompleteTaskIntent/perform",
                headers: [("Content-Type", "application/json"), ("Idempotency-Key", "tap-1")],
                body: Data(#"{"parameters":{"taskId":"task-3"},"instance":"tasks"}"#.utf8))
            #expect(retry.status == 200)
            #expect(retry.header("Idempotent-Replayed") == "true")
            let next = try await daemon.request("POST", "/v1/intents/CompleteTaskIntent/perform",
                                                json: #"{"parameters":{"taskId":"task-5"},"instance":"tasks"}"#)
            #expect(next.status == 200)
            #expect(try await daemon.stop() == 0)
            #expect(daemon.errorOutput.contains("owed reloads ran"))

            let container = try AppGroupContainer(identifier: "group.com.example.widgethost.demo", dataDirectory: data)
            let owed = try container.store.read { db in
                try db.scalar("SELECT COUNT(*) FROM widgethost_owed_reloads WHERE done_at IS NULL", as: Int.self)
            }
            let done = try container.store.read { db in
                try db.scalar("SELECT COUNT(*) FROM widgethost_owed_reloads WHERE done_at IS NOT NULL", as: Int.self)
            }
            #expect(owed == 0)
            #expect(done == 2, "the crashed tap's and the last perform's")
        }
    }
}
