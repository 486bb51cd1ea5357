import Foundation
import Testing

extension DaemonTests {
    /// The daily widget flow against the real binary: place it, advance the virtual clock past the next local
    /// midnight, see the entry switch; restart the daemon; the schedule and the virtual time carry on.
    @Suite("Daily widget flow across a restart", .serialized)
    struct DailyWidgetFlowTests {
        @Test("the entry switches at local midnight, and after a restart the next midnight is still scheduled")
        func dailyFlow() async throws {
            let directory = try DaemonProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let arguments = ["--data-dir", directory.appendingPathComponent("data").path, "--clock", "virtual",
                             "--clock-start", "2026-03-01T09:00:00Z", "--time-zone", "Europe/Paris"]

            let first = try await DaemonProcess(arguments, logs: directory)
            let placed = try await first.request("POST", "/v1/instances",
                                                 json: #"{"kind":"Daily","family":"systemSmall","id":"daily"}"#)
            #expect(placed.status == 201)
            let before = try await entryDay(first)
            #expect(before == "2026-03-01")
            let next = (placed.json["nextReload"] as? [String: Any])?["dueAt"] as? String
            #expect(next == "2026-03-01T23:00:00Z")  // local midnight in Paris

            let advanced = try await first.request("POST", "/v1/clock/advance", json: #"{"seconds":54000}"#)
            #expect(advanced.json["now"] as? String == "2026-03-02T00:00:00Z")
            #expect(advanced.objects("reloads").compactMap { $0["ranAt"] as? String } == ["2026-03-01T23:00:00Z"])
            #expect(try await entryDay(first) == "2026-03-02")
            #expect(try await first.stop() == 0)

            // The same data directory: the virtual time and the schedule were saved.
            let second = try await DaemonProcess(arguments, logs: directory)
            let clock = try await second.request("GET", "/v1/clock")
            #expect(clock.json["now"] as? String == "2026-03-02T00:00:00Z")
            let state = try await second.request("GET", "/v1/instances/daily")
            #expect((state.json["nextReload"] as? [String: Any])?["dueAt"] as? String == "2026-03-02T23:00:00Z")
            #expect(try await entryDay(second) == "2026-03-02")
            let day = try await second.request("POST", "/v1/clock/advance", json: #"{"seconds":86400}"#)
            #expect(day.objects("reloads").compactMap { $0["ranAt"] as? String } == ["2026-03-02T23:00:00Z"])
            #expect(try await entryDay(second) == "2026-03-03")
            #expect(try await second.stop(with: SIGINT) == 0)
        }

        private func entryDay(_ daemon: DaemonProcess) async throws -> String? {
            let entry = try await daemon.request("GET", "/v1/instances/daily/entry")
            return ((entry.json["entry"] as? [String: Any])?["content"] as? [String: Any])?["day"] as? String
        }
    }
}
