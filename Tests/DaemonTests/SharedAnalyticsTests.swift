import Foundation
import PostgresStore
import PostgresTestSupport
import Testing

extension DaemonTests {
    /// Daemons keeping their taps in one PostgreSQL database (`--analytics`): counts shared exactly, and a
    /// database that goes away answered with 503 `store_unavailable` until it is back.
    @Suite("shared analytics on PostgreSQL", .serialized,
           .enabled(if: ThrowawayCluster.isAvailable, Comment(rawValue: ThrowawayCluster.skipReason)))
    struct SharedAnalyticsTests {
        /// Routes each URL reaches (nil: none), decided here, not by the router.
        static let urls: [(url: String, route: String)] = [
            ("myapp://task/task-1", "task.detail"), ("myapp://project/proj-2", "project.detail"),
            ("myapp://taks/task-1", "(unmatched)"),
        ]

        /// A batch of `count` taps cycling through ``urls``, one second apart from `offset`, at 2026-03-01.
        static func batch(_ count: Int, offset: Int) -> String {
            let taps = (0..<count).map { index in
                let second = offset + index
                let at = String(format: "2026-03-01T%02d:%02d:%02dZ", second / 3600 % 24, second / 60 % 60, second % 60)
                return #"{"url":"\#(urls[(offset + index) % urls.count].url)","kind":"TaskList","#
                    + #""family":"systemMedium","source":"widgetURL","at":"\#(at)"}"#
            }
            return #"{"taps":["# + taps.joined(separator: ",") + "]}"
        }

        static func routeCounts(_ report: [[String: Any]]) -> [String: Int] {
            Dictionary(uniqueKeysWithValues: report.map { ($0["route"] as? String ?? "?", $0["taps"] as? Int ?? 0) })
        }

        @Test("two daemons on one database, taps posted to both at once: every report equals the independent count")
        func twoDaemonsCountTogether() async throws {
            let url = try ThrowawayCluster.shared().makeDatabase()
            let first = try InProcessDaemon(analytics: try PostgresPool(connectionString: url))
            let second = try InProcessDaemon(analytics: try PostgresPool(connectionString: url))
            defer { Task { await first.stop(); await second.stop() } }
            let batches = 16, size = 60
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<batches {
                    let daemon = index % 2 == 0 ? first : second
                    group.addTask {
                        try await daemon.request("POST", "/v1/taps", json: Self.batch(size, offset: index * size)).status
                    }
                }
                for try await status in group { #expect(status == 201) }
            }
            var expected: [String: Int] = [:]
            for index in 0..<(batches * size) { expected[Self.urls[index % Self.urls.count].route, default: 0] += 1 }
            for daemon in [first, second] {
                let report = try await daemon.request("GET", "/v1/taps/report")
                #expect(report.status == 200)
                #expect(report.json["totalTaps"] as? Int == batches * size)
                #expect(Self.routeCounts(report.objects("rows")) == expected)
                let hourly = try await daemon.request("GET", "/v1/taps/report?groupBy=&bucket=hour&timeZone=UTC")
                #expect(hourly.objects("rows").map { $0["taps"] as? Int ?? 0 }.reduce(0, +) == batches * size)
                let unmatched = try await daemon.request("GET", "/v1/taps/unmatched")
                #expect(unmatched.objects("urls").first?["taps"] as? Int == expected["(unmatched)"])
            }
        }

        @Test("PostgreSQL stopped under load: 503 store_unavailable while down, nothing acknowledged lost, recovery without a restart")
        func serverRestartUnderLoad() async throws {
            let cluster = try ThrowawayCluster.makeCluster()
            defer { cluster.remove() }
            let daemon = try InProcessDaemon(analytics: try PostgresPool(connectionString: try cluster.makeDatabase()))
            defer { Task { await daemon.stop() } }
            var acknowledged = 0, unavailable = 0, outcomeUnknown = 0, other: [Int] = []
            for round in 0..<60 {
                if round == 20 { try cluster.stopImmediately() }
                if round == 40 { try cluster.start() }
                let response = try await daemon.request("POST", "/v1/taps", json: Self.batch(10, offset: round * 10))
                switch response.status {
                case 201:
                    acknowledged += 10
                case 503:
                    #expect(response.json["code"] as? String == "store_unavailable")
                    unavailable += 1
                    if (response.json["detail"] as? [String: Any])?["outcome"] as? String == "unknown" { outcomeUnknown += 10 }
                default:
                    other.append(response.status)
                }
                if (20..<40).contains(round) { #expect(response.status == 503, "round \(round): the server is down") }
            }
            #expect(other.isEmpty)
            #expect(unavailable >= 20)
            #expect(acknowledged >= 400, "every request before the stop and after the start succeeded")
            let report = try await daemon.request("GET", "/v1/taps/report?groupBy=")
            #expect(report.status == 200)
            let total = try #require(report.json["totalTaps"] as? Int)
            #expect(total >= acknowledged && total <= acknowledged + outcomeUnknown)
        }
    }
}
