import Foundation
import PostgresTestSupport
import Testing

/// `widgethost push` over the demo engine's database, through the built binary.
@Suite("widgethost push")
struct PushCommandTests {
    @Test("submit records a decision (no_token until a token is registered); decisions and outbox list them")
    func submitAndList() async throws {
        let data = try CommandRunner.temporaryDirectory().path
        func run(_ arguments: [String]) async throws -> CommandRunner.Result {
            try await CommandRunner.run(arguments + ["--data-dir", data])
        }
        let started = try await run(["activities", "start", "--type", "DeliveryAttributes", "--push", "token",
                                     "--attributes", #"{"orderId":"ORD-1","courierName":"Sam"}"#, "--content",
                                     #"{"status":"preparing","etaMinutes":30,"estimatedArrival":817324200}"#, "--json"])
        let id = try #require((try JSONSerialization.jsonObject(with: Data(started.standardOutput.utf8))
            as? [String: Any])?["id"] as? String)
        let submitted = try await run(["push", "submit", id, "--state",
                                       #"{"status":"onTheWay","etaMinutes":12,"estimatedArrival":817324500}"#, "--json"])
        #expect(submitted.status == 0, "stderr: \(submitted.standardError)")
        let decision = try JSONSerialization.jsonObject(with: Data(submitted.standardOutput.utf8)) as? [String: Any]
        #expect(decision?["kind"] as? String == "no_token")

        let decisions = try await run(["push", "decisions", id])
        #expect(decisions.status == 0)
        #expect(decisions.standardOutput.contains("\(id) no_token: no usable update token"))
        let listed = try await run(["push", "decisions", id, "--json", "--kind", "no_token"])
        let list = try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [String: Any]
        #expect((list?["decisions"] as? [Any])?.count == 1)

        let outbox = try await run(["push", "outbox", "--json"])
        #expect(outbox.status == 0, "stderr: \(outbox.standardError)")
        let pushes = try JSONSerialization.jsonObject(with: Data(outbox.standardOutput.utf8)) as? [String: Any]
        #expect((pushes?["pushes"] as? [Any])?.isEmpty == true)
        #expect(pushes?["pending"] as? Int == 0)
    }

    @Test("bad arguments exit 2; an unknown activity without --type exits 1; nothing is recorded")
    func refusals() async throws {
        let data = try CommandRunner.temporaryDirectory().path
        func run(_ arguments: [String]) async throws -> CommandRunner.Result {
            try await CommandRunner.run(arguments + ["--data-dir", data])
        }
        #expect(try await run(["push", "outbox", "--status", "lost"]).status == 2)
        #expect(try await run(["push", "decisions"]).status == 2)
        #expect(try await run(["push", "submit", "a1", "--state", "{not json"]).status == 2)
        #expect(try await run(["push", "nope"]).status == 2)
        let unknown = try await run(["push", "submit", "a1", "--state", "{}"])
        #expect(unknown.status == 1)
        #expect(unknown.standardError.contains("a1"))
        let notObject = try await run(["push", "submit", "a1", "--type", "DeliveryAttributes", "--state", "[1]"])
        #expect(notObject.status == 1 && notObject.standardError.contains("JSON object"))
        #expect(try await run(["push", "decisions", "a1"]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }
}

/// `widgethost push --push-store`: the push store in a PostgreSQL database, shared whatever the data directory.
@Suite("widgethost push --push-store",
       .enabled(if: ThrowawayCluster.isAvailable, Comment(rawValue: ThrowawayCluster.skipReason)))
struct PushCommandSharedStoreTests {
    @Test("a decision submitted with --push-store is listed from another data directory on the same store")
    func sharedStore() async throws {
        let url = try ThrowawayCluster.shared().makeDatabase()
        let one = try CommandRunner.temporaryDirectory().path
        let two = try CommandRunner.temporaryDirectory().path
        let submitted = try await CommandRunner.run(["push", "submit", "act-1", "--type", "DeliveryAttributes",
                                                     "--state", #"{"status":"preparing"}"#, "--json",
                                                     "--push-store", url, "--data-dir", one])
        #expect(submitted.status == 0, "stderr: \(submitted.standardError)")
        let listed = try await CommandRunner.run(["push", "decisions", "act-1", "--json", "--shared-store", url,
                                                  "--data-dir", two])
        #expect(listed.status == 0, "stderr: \(listed.standardError)")
        let list = try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [String: Any]
        #expect((list?["decisions"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["no_token"])
        let local = try await CommandRunner.run(["push", "decisions", "act-1", "--data-dir", two])
        #expect(local.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
                "the engine's own database holds none")
        let down = try await CommandRunner.run(["push", "decisions", "act-1", "--data-dir", two, "--push-store",
                                                "postgresql:///db?host=\(two)&connect_timeout=2"])
        #expect(down.status != 0 && down.standardError.contains("unavailable"), "\(down.standardError)")
    }
}
