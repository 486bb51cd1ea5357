import APNsTestSupport
import Foundation
import PostgresTestSupport
import Synchronization
import Testing

extension DaemonTests {
    /// `kill -9` of one daemon on a shared push store while it acknowledges submits: what it acknowledged is in the
    /// shared store, and the other daemon's sender delivers it.
    @Suite("shared push store: a daemon killed mid-burst", .serialized,
           .enabled(if: ThrowawayCluster.isAvailable, Comment(rawValue: ThrowawayCluster.skipReason)))
    struct SharedPushStoreCrashTests {
        @Test("kill -9 of a daemon mid-burst of submits: every decision it acknowledged is delivered by the other, once")
        func acknowledgedSubmitsSurviveTheDaemon() async throws {
            let url = try ThrowawayCluster.shared().makeDatabase()
            let apns = try LocalAPNs()
            let directory = try DaemonProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            // The killed daemon has no sender, so it leases nothing: all it queued is the survivor's to send at once.
            let doomed = try await DaemonProcess(["--data-dir", directory.appendingPathComponent("doomed").path,
                                                  "--push-store", url], logs: directory)
            let survivor = try await DaemonProcess(
                SharedPushStoreTests.arguments(apns, data: directory.appendingPathComponent("survivor"), store: url),
                logs: directory)
            let activities = 160
            for n in 0..<activities {
                let registered = try await survivor.request("PUT", "/v1/push/tokens/activities/k\(n)",
                                                            json: #"{"token":"\#(SharedPushStoreTests.token(2000 + n))"}"#)
                #expect(registered.status == 200)
            }
            let acknowledged = Acknowledged()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        for n in stride(from: worker, to: activities, by: 4) {
                            guard let response = try? await doomed.request(
                                "POST", "/v1/activities/k\(n)/states",
                                json: #"{"attributesType":"\#(SharedPushStoreTests.type)","state":{"n":\#(n)}}"#)
                            else { return }  // the daemon is gone
                            if response.status == 200, let id = response.json["apnsId"] as? String {
                                acknowledged.ids.withLock { $0.append(id.lowercased()) }
                            }
                        }
                    }
                }
                group.addTask {
                    while acknowledged.ids.withLock({ $0.count }) < 40 { try await Task.sleep(for: .milliseconds(5)) }
                    kill(doomed.process.processIdentifier, SIGKILL)
                }
                try await group.waitForAll()
            }
            _ = try await doomed.waitForExit()
            #expect(doomed.process.terminationReason == .uncaughtSignal, "killed, not finished")
            let ids = acknowledged.ids.withLock { $0 }
            #expect(ids.count >= 40 && ids.count < activities, "killed mid-burst: \(ids.count) acknowledged")
            let counts = try await SharedPushStoreTests.delivered(apns, Set(ids))
            #expect(ids.allSatisfy { counts[$0] == 1 }, "every acknowledged push delivered once by the survivor")
            let decisions = try await survivor.request("GET", "/v1/push/decisions?kind=sent&limit=1000")
            let recorded = Set(decisions.objects("decisions").compactMap { ($0["apnsId"] as? String)?.lowercased() })
            #expect(Set(ids).isSubset(of: recorded), "every acknowledged decision is in the shared store")
            #expect(try await survivor.stop() == 0)
        }
    }

    /// The `apns-id`s a daemon acknowledged, from several tasks.
    final class Acknowledged: Sendable {
        let ids = Mutex<[String]>([])
    }
}
