import APNsTestSupport
import Foundation
import HTTPTestSupport
import ProcessTestSupport
import Testing

extension DaemonTests {
    /// `widgethost serve --apns-…` against the local APNs: a push posted to the outbox is delivered, its fate is in
    /// the API, the counts are at /metrics; a 410 invalidates the token; a push queued by the CLI while the daemon
    /// runs is sent too; bad APNs options are refused before anything starts.
    @Suite("APNs delivery from the daemon", .serialized)
    struct APNsDeliveryTests {
        static let token = String(repeating: "ab", count: 32)
        static let deadToken = String(repeating: "cd", count: 32)
        static let payload = #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"status":"out"}}}"#

        static func arguments(_ apns: LocalAPNs, data: URL) -> [String] {
            ["--data-dir", data.path, "--apns-endpoint", apns.endpoint.absoluteString, "--apns-key-file", apns.keyFile,
             "--apns-key-id", LocalAPNs.keyID, "--apns-team-id", LocalAPNs.teamID, "--apns-topic", LocalAPNs.bundleID,
             "--apns-ca-file", apns.caFile, "--apns-connections", "2"]
        }

        @Test func aPostedPushIsDeliveredAndItsFateAndCountsAreServed() async throws {
            let apns = try LocalAPNs()
            try apns.script(["token": Self.deadToken, "status": 410, "reason": "Unregistered"])
            let directory = try DaemonProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let daemon = try await DaemonProcess(Self.arguments(apns, data: directory.appendingPathComponent("data")),
                                                 logs: directory)
            let posted = try await daemon.request("POST", "/v1/push/outbox", json: """
                {"deviceToken":"\(Self.token)","payload":\(Self.payload),"priority":5,"collapseId":"eta"}
                """)
            #expect(posted.status == 202, "\(posted.text)")
            let id = try #require(posted.json["apnsId"] as? String)
            #expect(posted.json["status"] as? String == "pending")
            let fate = try await Self.settled(daemon, id)
            #expect(fate["status"] as? String == "delivered")
            #expect(fate["apnsStatus"] as? Int == 200)
            #expect(fate["attempts"] as? Int == 1)
            let received = try apns.pushes()
            #expect(received.count == 1)
            #expect(received.first?["apnsId"] as? String == id.lowercased())
            #expect(received.first?["topic"] as? String == LocalAPNs.bundleID + ".push-type.liveactivity")
            #expect(received.first?["priority"] as? String == "5")
            #expect(received.first?["collapseId"] as? String == "eta")

            let dead = try await daemon.request("POST", "/v1/push/outbox", json: """
                {"deviceToken":"\(Self.deadToken)","payload":\(Self.payload)}
                """)
            let deadFate = try await Self.settled(daemon, try #require(dead.json["apnsId"] as? String))
            #expect(deadFate["status"] as? String == "failed")
            #expect(deadFate["lastResult"] as? String == "Unregistered")
            let again = try await daemon.request("POST", "/v1/push/outbox", json: """
                {"deviceToken":"\(Self.deadToken)","payload":\(Self.payload)}
                """)
            #expect(again.status == 409)
            #expect(again.json["code"] as? String == "token_invalidated")

            let metrics = try await daemon.request("GET", "/metrics").text
            #expect(metrics.contains("widgethost_apns_sent_total 1\n"))
            #expect(metrics.contains("widgethost_apns_requests_total 2\n"))
            #expect(metrics.contains(#"widgethost_apns_failed_total{reason="Unregistered"} 1"#))
            #expect(metrics.contains(#"widgethost_apns_latency_seconds_count 2"#))
            #expect(metrics.contains("widgethost_apns_queue_depth"))
            #expect(try await daemon.stop() == 0)
        }

        @Test func badPostsAreRefusedWithAStableCodeAndQueueNothing() async throws {
            let apns = try LocalAPNs()
            let directory = try DaemonProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let daemon = try await DaemonProcess(Self.arguments(apns, data: directory.appendingPathComponent("data")),
                                                 logs: directory)
            let big = String(repeating: "x", count: 4100)
            let cases: [(String, Int, String)] = [
                (#"{"deviceToken":"zz","payload":{}}"#, 400, "invalid_field"),
                (#"{"deviceToken":"\#(Self.token)","payload":[]}"#, 400, "invalid_field"),
                (#"{"deviceToken":"\#(Self.token)","payload":{"aps":{}},"priority":7}"#, 400, "invalid_field"),
                (#"{"deviceToken":"\#(Self.token)","payload":{"aps":{}},"apnsId":"nope"}"#, 400, "invalid_field"),
                (#"{"deviceToken":"\#(Self.token)","payload":{"pad":"\#(big)"}}"#, 422, "invalid_push"),
                (#"{"deviceToken":"\#(Self.token)","payload":{"aps":{}},"collapseId":"\#(String(repeating: "c", count: 65))"}"#,
                 422, "invalid_push"),
                (#"{"deviceToken":"\#(Self.token)","payload":{"aps":{}},"extra":1}"#, 400, "unknown_field"),
            ]
            for (body, status, code) in cases {
                let response = try await daemon.request("POST", "/v1/push/outbox", json: body)
                #expect(response.status == status, "\(body.prefix(80)): \(response.text)")
                #expect(response.json["code"] as? String == code, "\(body.prefix(80))")
            }
            let id = UUID().uuidString
            let first = try await daemon.request("POST", "/v1/push/outbox", json: """
                {"deviceToken":"\(Self.token)","payload":{"aps":{}},"apnsId":"\(id)"}
                """)
            #expect(first.status == 202)
            let duplicate = try await daemon.request("POST", "/v1/push/outbox", json: """
                {"deviceToken":"\(Self.token)","payload":{"aps":{}},"apnsId":"\(id)"}
                """)
            #expect(duplicate.status == 409)
            #expect(duplicate.json["code"] as? String == "duplicate_apns_id")
            let unknown = try await daemon.request("GET", "/v1/push/outbox/\(UUID().uuidString)")
            #expect(unknown.status == 404)
            #expect(unknown.json["code"] as? String == "unknown_push")
            let list = try await daemon.request("GET", "/v1/push/outbox")
            #expect((list.json["pushes"] as? [Any])?.count == 1)
            #expect(try await daemon.stop() == 0)
        }

        @Test func aPushQueuedByTheCLIIsSentByTheRunningDaemon() async throws {
            let apns = try LocalAPNs()
            let directory = try DaemonProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let data = directory.appendingPathComponent("data")
            let daemon = try await DaemonProcess(Self.arguments(apns, data: data), logs: directory)
            let binary = try DaemonProcess.binary()
            let sent = try await FinishedChild.run(binary, ["push", "send", "--data-dir", data.path, "--token", Self.token,
                                                            "--payload", Self.payload, "--json"])
            #expect(sent.status == 0, "\(sent.standardError)")
            let object = try JSONSerialization.jsonObject(with: Data(sent.standardOutput.utf8)) as? [String: Any]
            let id = try #require(object?["apnsId"] as? String)
            let fate = try await Self.settled(daemon, id)
            #expect(fate["status"] as? String == "delivered")
            let shown = try await FinishedChild.run(binary, ["push", "outbox", id, "--data-dir", data.path])
            #expect(shown.status == 0)
            #expect(shown.standardOutput.contains("\(id) delivered"))
            let refused = try await FinishedChild.run(binary, ["push", "send", "--data-dir", data.path, "--token", "xyz",
                                                               "--payload", Self.payload])
            #expect(refused.status == 2)
            #expect(refused.standardError.contains("--token"))
            #expect(try await daemon.stop() == 0)
        }

        @Test func incompleteOrBadAPNsOptionsAreRefusedBeforeAnythingStarts() async throws {
            let directory = try DaemonProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let binary = try DaemonProcess.binary()
            let data = directory.appendingPathComponent("data").path
            let missing = try await FinishedChild.run(binary, ["serve", "--data-dir", data, "--port", "0",
                                                               "--apns-endpoint", "https://127.0.0.1:1"])
            #expect(missing.status == 2)
            #expect(missing.standardError.contains("--apns-key-file, --apns-key-id, --apns-team-id, --apns-topic"))
            let badKey = try await FinishedChild.run(binary, [
                "serve", "--data-dir", data, "--port", "0", "--apns-endpoint", "https://127.0.0.1:1",
                "--apns-key-file", directory.appendingPathComponent("none.p8").path, "--apns-key-id", "ABC123DEFG",
                "--apns-team-id", "TEAM123456", "--apns-topic", "com.example.widgethost"])
            #expect(badKey.status == 2)
            #expect(badKey.standardError.contains("none.p8' cannot be read"))
            let connections = try await FinishedChild.run(binary, [
                "serve", "--data-dir", data, "--port", "0", "--apns-endpoint", "https://127.0.0.1:1",
                "--apns-key-file", "k.p8", "--apns-key-id", "ABC123DEFG", "--apns-team-id", "TEAM123456",
                "--apns-topic", "com.example.widgethost", "--apns-connections", "17"])
            #expect(connections.status == 2)
            #expect(connections.standardError.contains("--apns-connections needs a number 1-16"))
        }

        /// Polls the push's fate until it is no longer pending.
        static func settled(_ daemon: DaemonProcess, _ id: String) async throws -> [String: Any] {
            let deadline = ContinuousClock.now + .seconds(30)
            while true {
                let response = try await daemon.request("GET", "/v1/push/outbox/\(id)")
                if response.json["status"] as? String != "pending" || ContinuousClock.now > deadline { return response.json }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }
}
