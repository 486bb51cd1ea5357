import Foundation
import ProcessTestSupport
import Push
import SharedState
import Testing

/// Kills `intents-crashperformer plan` with SIGKILL at random moments while it submits state changes to the push
/// planner, and checks that every acknowledged change has its decision and its outbox push, with its state.
@Suite("Push planner crash durability")
struct PushPlannerCrashTests {
    @Test(.timeLimit(.minutes(1)))
    func acknowledgedPlansSurviveSIGKILL() async throws {
        let performer = try IntentCrashTests.performerURL()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("PushPlannerCrashTests-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var acknowledged: [Int: UUID] = [:]
        var next = 1
        for round in 1...4 {
            let arguments = ["plan", directory.path, String(next)]
            let child = try await runOffPool {
                try KilledChild.run(performer, arguments: arguments,
                                    firstOutputTimeout: 20, maximumDelay: 200_000)
            }
            #expect(child.reason == .uncaughtSignal, "round \(round): \(child.standardError)")
            let lines = String(decoding: child.output, as: UTF8.self)
                .split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            try #require(!lines.isEmpty, "round \(round): nothing acknowledged; stderr: \(child.standardError)")
            for line in lines {
                let parts = line.split(separator: " ")
                let sequence = try #require(parts.first.flatMap { Int($0) })
                let apnsID: UUID = try #require(parts.last.flatMap { UUID(uuidString: String($0)) })
                acknowledged[sequence] = apnsID
                next = max(next, sequence + 1)
            }
            // The killed child may have committed one more change than it acknowledged; the next round starts well
            // past it, so that each round's activities are new and each change is planned as a first push.
            next += 1000

            let store = try PushStore(database: DatabaseStore(path: directory.appendingPathComponent("push.sqlite").path),
                                      now: { Date() })
            for (sequence, apnsID) in acknowledged {
                let push = try #require(try store.outbox.push(apnsID: apnsID), "round \(round): push \(sequence) lost")
                #expect(push.activityID == "activity-\(sequence)")
                #expect(String(decoding: push.payload, as: UTF8.self).contains("\"n\":\(sequence)"))
                let decisions = try store.planner.decisions(activityID: "activity-\(sequence)")
                #expect(decisions.contains { $0.apnsID == apnsID && $0.kind == .sent }, "round \(round): decision \(sequence)")
            }
            let integrity = try #require(store.database).read { db in try db.scalar("PRAGMA integrity_check", as: String.self) }
            #expect(integrity == "ok")
        }
        #expect(acknowledged.count >= 8)
    }
}
