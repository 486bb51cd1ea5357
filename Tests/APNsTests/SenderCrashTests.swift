import APNsTestSupport
import Foundation
import ProcessTestSupport
import Push
import SharedState
import Testing

/// `kill -9` during a burst: every acknowledged push is delivered after a restart, duplicates only among those in
/// flight at the kill.
@Suite(.serialized)
struct SenderCrashTests {
    @Test(.timeLimit(.minutes(3)))
    func everyAcknowledgedPushIsDeliveredAfterSIGKILLAndARestart() async throws {
        let apns = try LocalAPNs()
        let sender = try Self.crashSenderURL()
        let database = apns.directory.appendingPathComponent("push.sqlite").path
        let common = [database, apns.endpoint.absoluteString, apns.caFile, apns.keyFile, LocalAPNs.keyID,
                      LocalAPNs.teamID, LocalAPNs.bundleID]
        let child = try await runOffPool {
            try KilledChild.run(sender, arguments: ["send"] + common + ["3000"], firstOutputTimeout: 30,
                                maximumDelay: 800_000)
        }
        #expect(child.reason == .uncaughtSignal, "\(child.standardError)")
        let lines = String(decoding: child.output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast()
        let acknowledged = lines.compactMap { UUID(uuidString: String($0)) }
        #expect(acknowledged.count == lines.count)
        try #require(acknowledged.count >= 20, "nothing acknowledged: \(child.standardError)")
        let deliveredAtKill = try apns.deliveredIDs()
        let store = try PushStore(database: DatabaseStore(path: database), now: Date.init)
        let pendingAtKill = try store.pendingCount()

        let drain = try await FinishedChild.run(sender, ["drain"] + common)
        #expect(drain.status == 0, "\(drain.standardError)")

        let delivered = try apns.deliveredIDs()
        var lost: [UUID] = []
        for id in acknowledged where (delivered[id.uuidString.lowercased()] ?? 0) < 1 { lost.append(id) }
        #expect(lost.isEmpty, "\(lost.count) acknowledged pushes never reached APNs")
        for id in acknowledged {
            #expect(try store.outbox.push(apnsID: id)?.status == .delivered)
        }
        // A push can go twice only if it was in flight at the kill: at most the window (100), and only pushes
        // answered before the kill but not recorded.
        let duplicates = delivered.filter { $0.value > 1 }
        #expect(duplicates.count <= 100)
        #expect(duplicates.keys.allSatisfy { deliveredAtKill[$0] == 1 })
        print("crash: \(acknowledged.count) acknowledged, \(pendingAtKill) pending at the kill, "
              + "\(deliveredAtKill.count) delivered before it, \(duplicates.count) sent twice")
    }

    static func crashSenderURL() throws -> URL {
        let name = "apns-crashsender"
        let candidates = [Bundle.main.bundleURL.appendingPathComponent(name),
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                              .appendingPathComponent(name),
                          LocalAPNs.root.appendingPathComponent(".build/debug").appendingPathComponent(name)]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw LocalAPNsError(description: "\(name) is not built (swift build --build-tests builds it)")
        }
        return found
    }
}
