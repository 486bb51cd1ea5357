import APNsTestSupport
import Foundation
import PostgresTestSupport
import Testing

extension DaemonTests {
    /// `widgethost serve --push-store postgres://…`, the built binary: two daemons sharing one push store (token
    /// registry, planner, outbox) and draining it to the local APNs; PostgreSQL stopped and started under load.
    @Suite("shared push store on PostgreSQL", .serialized,
           .enabled(if: ThrowawayCluster.isAvailable, Comment(rawValue: ThrowawayCluster.skipReason)))
    struct SharedPushStoreTests {
        static let type = "ParcelAttributes"

        /// A distinct 32-byte token in hex for `n`.
        static func token(_ n: Int) -> String { String(format: "%064x", 0xA000_0000 + n) }

        static func arguments(_ apns: LocalAPNs, data: URL, store: String) -> [String] {
            APNsDeliveryTests.arguments(apns, data: data) + ["--push-store", store]
        }

        /// Waits until the local APNs answered 200 for every id in `ids`, or 60 s passed; returns its counts.
        static func delivered(_ apns: LocalAPNs, _ ids: Set<String>) async throws -> [String: Int] {
            let deadline = ContinuousClock.now + .seconds(60)
            while true {
                let counts = try apns.deliveredIDs()
                if ids.isSubset(of: Set(counts.keys)) || ContinuousClock.now > deadline { return counts }
                try await Task.sleep(for: .milliseconds(100))
            }
        }

        @Test("two daemons on one push store: registrations and submits to both, each push delivered once; a 410 invalidates the shared token")
        func twoDaemonsShareOnePushStore() async throws {
            let url = try ThrowawayCluster.shared().makeDatabase()
            let apns = try LocalAPNs()
            let dead = Self.token(999)
            try apns.script(["token": dead, "status": 410, "reason": "Unregistered"])
            let directory = try DaemonProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let first = try await DaemonProcess(Self.arguments(apns, data: directory.appendingPathComponent("one"),
                                                               store: url), logs: directory)
            let second = try await DaemonProcess(Self.arguments(apns, data: directory.appendingPathComponent("two"),
                                                                store: url), logs: directory)
            let daemons = [first, second]
            let activities = 24
            // Each activity's token is registered on one daemon and its state submitted to the other.
            let ids = try await withThrowingTaskGroup(of: String?.self) { group in
                for n in 0..<activities {
                    group.addTask {
                        let registered = try await daemons[n % 2].request(
                            "PUT", "/v1/push/tokens/activities/act-\(n)", json: #"{"token":"\#(Self.token(n))"}"#)
                        #expect(registered.status == 200, "\(registered.text)")
                        let decision = try await daemons[(n + 1) % 2].request(
                            "POST", "/v1/activities/act-\(n)/states",
                            json: #"{"attributesType":"\#(Self.type)","state":{"stop":\#(n),"status":"out"}}"#)
                        #expect(decision.status == 200, "\(decision.text)")
                        #expect(decision.json["kind"] as? String == "sent", "the other daemon's token is in the shared registry")
                        return decision.json["apnsId"] as? String
                    }
                    group.addTask {
                        let posted = try await daemons[n % 2].request("POST", "/v1/push/outbox", json: """
                            {"deviceToken":"\(Self.token(100 + n))","payload":\(APNsDeliveryTests.payload)}
                            """)
                        #expect(posted.status == 202, "\(posted.text)")
                        return posted.json["apnsId"] as? String
                    }
                }
                var ids: [String] = []
                for try await id in group { if let id { ids.append(id.lowercased()) } }
                return ids
            }
            #expect(ids.count == 2 * activities)
            let counts = try await Self.delivered(apns, Set(ids))
            #expect(ids.allSatisfy { counts[$0] == 1 }, "each push delivered exactly once: \(counts.filter { $0.value != 1 })")
            #expect(counts.count == ids.count, "nothing else was sent")
            for (index, id) in ids.enumerated() {
                let fate = try await daemons[index % 2].request("GET", "/v1/push/outbox/\(id.uppercased())")
                #expect(fate.json["status"] as? String == "delivered", "\(fate.text)")
            }
            var sent = 0
            for daemon in daemons {
                let metrics = try await daemon.request("GET", "/metrics").text
                let line = metrics.split(separator: "\n").first { $0.hasPrefix("widgethost_apns_sent_total ") }
                sent += Int(line?.split(separator: " ").last ?? "") ?? 0
            }
            #expect(sent == ids.count, "the two senders' counts add up to the pushes, none sent by both")
            let decisions = try await second.request("GET", "/v1/push/decisions?kind=sent")
            #expect(decisions.objects("decisions").count == activities, "\(decisions.text)")

            // A 410 answered to one daemon's sender invalidates the token in the registry both daemons read. (No
            // minimum interval, so the planner reaches the registry at the next change.)
            let policy = try await first.request("PUT", "/v1/push/policies/\(Self.type)", json: #"{"minimumInterval":0}"#)
            #expect(policy.status == 200, "\(policy.text)")
            #expect(try await first.request("PUT", "/v1/push/tokens/activities/gone",
                                            json: #"{"token":"\#(dead)"}"#).status == 200)
            let doomed = try await second.request("POST", "/v1/activities/gone/states",
                                                  json: #"{"attributesType":"\#(Self.type)","state":{"stop":1}}"#)
            let doomedID = try #require(doomed.json["apnsId"] as? String)
            let fate = try await APNsDeliveryTests.settled(first, doomedID)
            #expect(fate["lastResult"] as? String == "Unregistered")
            for daemon in daemons {
                let registration = try await daemon.request("GET", "/v1/push/registrations/\(dead)")
                #expect(registration.json["invalidatedAt"] != nil, "\(registration.text)")
            }
            let after = try await first.request("POST", "/v1/activities/gone/states",
                                                json: #"{"attributesType":"\#(Self.type)","state":{"stop":2}}"#)
            #expect(after.json["kind"] as? String == "no_token", "\(after.text)")
            for daemon in daemons { #expect(try await daemon.stop() == 0) }
        }

        @Test("PostgreSQL stopped and started under load: token, outbox and planner endpoints answer 503 store_unavailable, nothing acknowledged is lost, no restart")
        func serverRestartUnderLoad() async throws {
            let cluster = try ThrowawayCluster.makeCluster()
            defer { cluster.remove() }
            let apns = try LocalAPNs()
            let directory = try DaemonProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let daemon = try await DaemonProcess(
                Self.arguments(apns, data: directory.appendingPathComponent("data"), store: try cluster.makeDatabase()),
                logs: directory)
            var acknowledged: [String] = [], planned: [String] = [], unknown = 0, other: [String] = []
            for round in 0..<45 {
                if round == 15 { try cluster.stopImmediately() }
                if round == 30 { try cluster.start() }
                let registered = try await daemon.request("PUT", "/v1/push/tokens/activities/r\(round)",
                                                          json: #"{"token":"\#(Self.token(500 + round))"}"#)
                let posted = try await daemon.request("POST", "/v1/push/outbox", json: """
                    {"deviceToken":"\(Self.token(500 + round))","payload":\(APNsDeliveryTests.payload)}
                    """)
                let submitted = try await daemon.request(
                    "POST", "/v1/activities/r\(round)/states",
                    json: #"{"attributesType":"\#(Self.type)","state":{"round":\#(round)}}"#)
                for response in [registered, posted, submitted] {
                    switch response.status {
                    case 200, 202: break
                    case 503:
                        #expect(response.json["code"] as? String == "store_unavailable", "\(response.text)")
                        if (response.json["detail"] as? [String: Any])?["outcome"] as? String == "unknown" { unknown += 1 }
                    default: other.append("\(response.status) \(response.text)")
                    }
                }
                if posted.status == 202, let id = posted.json["apnsId"] as? String { acknowledged.append(id.lowercased()) }
                if submitted.status == 200, let id = submitted.json["apnsId"] as? String { planned.append(id.lowercased()) }
                if (15..<30).contains(round) {
                    #expect(registered.status == 503 && posted.status == 503 && submitted.status == 503,
                            "round \(round): the server is down")
                }
            }
            #expect(other.isEmpty, "\(other)")
            #expect(acknowledged.count >= 30 - unknown, "every request before the stop and after the start succeeded")
            #expect(planned.count >= 30 - unknown, "the planner's submits too, each sent to the token of its round")
            let counts = try await Self.delivered(apns, Set(acknowledged + planned))
            #expect((acknowledged + planned).allSatisfy { counts[$0] == 1 }, "every acknowledged push was delivered once")
            for id in acknowledged.suffix(3) {
                let fate = try await daemon.request("GET", "/v1/push/outbox/\(id)")
                #expect(fate.json["status"] as? String == "delivered", "\(fate.text)")
            }
            #expect(try await daemon.stop() == 0)
        }

        @Test("--shared-store: one database for taps and the push store, read back from another daemon")
        func sharedStoreCoversTapsAndPushes() async throws {
            let url = try ThrowawayCluster.shared().makeDatabase()
            let directory = try DaemonProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let first = try await DaemonProcess(["--data-dir", directory.appendingPathComponent("one").path,
                                                 "--shared-store", url], logs: directory)
            let second = try await DaemonProcess(["--data-dir", directory.appendingPathComponent("two").path,
                                                  "--shared-store", url], logs: directory)
            let registered = try await first.request("PUT", "/v1/push/tokens/activities/s1",
                                                     json: #"{"token":"\#(Self.token(7))"}"#)
            #expect(registered.status == 200, "\(registered.text)")
            let slot = try await second.request("GET", "/v1/push/tokens/activities/s1")
            #expect(slot.status == 200, "\(slot.text)")
            #expect(slot.text.contains(Self.token(7)), "\(slot.text)")
            let taps = try await first.request("POST", "/v1/taps", json: SharedAnalyticsTests.batch(5, offset: 0))
            #expect(taps.status == 201, "\(taps.text)")
            let report = try await second.request("GET", "/v1/taps/report?groupBy=")
            #expect(report.json["totalTaps"] as? Int == 5, "\(report.text)")
            for daemon in [first, second] { #expect(try await daemon.stop() == 0) }
        }
    }
}
