import APNs
import APNsTestSupport
import Foundation
import PostgresStore
import PostgresTestSupport
import ProcessTestSupport
import Push
import Testing

/// Senders sharing one outbox on PostgreSQL against the local APNs, which counts each `apns-id` it answered.
@Suite(.serialized, .enabled(if: ThrowawayCluster.isAvailable, Comment(rawValue: ThrowawayCluster.skipReason)))
struct PostgresSendersTests {
    @Test(.timeLimit(.minutes(3)))
    func twoSendersOnOneOutboxDeliverEachPushExactlyOnce() throws {
        let apns = try LocalAPNs()
        let outbox = try PostgresPushOutbox(pool: PostgresPool(connectionString: try ThrowawayCluster.shared().makeDatabase()))
        let pushes = (0..<600).map { SenderFixture.push(to: SenderFixture.token($0 % 11)) }
        try outbox.enqueue(contentsOf: pushes)
        // Small windows, so each sender claims a few at a time and both have work.
        let senders = try (0..<2).map { _ in try Self.sender(apns, outbox, window: 16) }
        for sender in senders { try sender.start() }
        defer { for sender in senders { sender.stop(grace: .seconds(1)) } }
        try Self.waitUntilDrained(outbox)

        let delivered = try apns.deliveredIDs()
        #expect(delivered.count == 600)
        #expect(pushes.allSatisfy { delivered[$0.apnsID.uuidString.lowercased()] == 1 }, "each push sent once")
        let settled = try outbox.pushes(limit: 1000)
        #expect(settled.count == 600 && settled.allSatisfy { $0.status == .delivered && $0.attempts == 1 })
        let counts = senders.map { $0.metrics.snapshot.delivered }
        #expect(counts.reduce(0, +) == 600)
        #expect(counts.allSatisfy { $0 > 0 }, "both senders delivered: \(counts)")
        #expect(senders.allSatisfy { $0.lastError == nil })
    }

    @Test(.timeLimit(.minutes(3)))
    func pushesClaimedByASenderThatDiedGoToAnotherWhenTheLeaseEnds() throws {
        let apns = try LocalAPNs()
        let outbox = try PostgresPushOutbox(pool: PostgresPool(connectionString: try ThrowawayCluster.shared().makeDatabase()))
        let pushes = (0..<40).map { SenderFixture.push(to: SenderFixture.token($0 % 5)) }
        try outbox.enqueue(contentsOf: pushes)
        // What a sender killed after its claim leaves behind: every push leased, none answered.
        let claimedAt = Date()
        let orphaned = try outbox.claimDue(limit: 100, dueBy: claimedAt, at: claimedAt, lease: .seconds(2))
        #expect(orphaned.count == 40)
        let sender = try Self.sender(apns, outbox, window: 100)
        try sender.start()
        defer { sender.stop(grace: .seconds(1)) }
        usleep(1_000_000)
        #expect(try apns.deliveredIDs().isEmpty, "nothing is sent while the dead sender's leases run")
        try Self.waitUntilDrained(outbox)
        let delivered = try apns.deliveredIDs()
        #expect(pushes.allSatisfy { delivered[$0.apnsID.uuidString.lowercased()] == 1 })
        let settled = try outbox.pushes(limit: 100)
        #expect(settled.allSatisfy { $0.status == .delivered && ($0.finishedAt ?? .distantPast) >= claimedAt + 2 })
    }

    @Test(.timeLimit(.minutes(3)))
    func aSenderKilledMidBurstLeavesTheRestToTheOtherAfterItsLeases() async throws {
        let apns = try LocalAPNs()
        let database = try ThrowawayCluster.shared().makeDatabase()
        let outbox = try PostgresPushOutbox(pool: PostgresPool(connectionString: database))
        let survivor = try Self.sender(apns, outbox, window: 16, lease: .seconds(3))
        try survivor.start()
        defer { survivor.stop(grace: .seconds(1)) }
        let common = [database, apns.endpoint.absoluteString, apns.caFile, apns.keyFile, LocalAPNs.keyID,
                      LocalAPNs.teamID, LocalAPNs.bundleID]
        let crashSender = try SenderCrashTests.crashSenderURL()
        let child = try await runOffPool {
            try KilledChild.run(crashSender, arguments: ["send"] + common + ["2000"], firstOutputTimeout: 30,
                                maximumDelay: 800_000)
        }
        #expect(child.reason == .uncaughtSignal, "\(child.standardError)")
        let acknowledged = String(decoding: child.output, as: UTF8.self).split(separator: "\n")
            .compactMap { UUID(uuidString: String($0)) }
        try #require(acknowledged.count >= 20, "nothing acknowledged: \(child.standardError)")
        let deliveredAtKill = try apns.deliveredIDs()
        try Self.waitUntilDrained(outbox)

        let delivered = try apns.deliveredIDs()
        let lost = acknowledged.filter { (delivered[$0.uuidString.lowercased()] ?? 0) < 1 }
        #expect(lost.isEmpty, "\(lost.count) acknowledged pushes never reached APNs")
        #expect(try outbox.pushes(limit: 10_000).allSatisfy { $0.status == .delivered })
        // Twice only what the killed sender had in flight: at most its window (100), each sent before the kill.
        let duplicates = delivered.filter { $0.value > 1 }
        #expect(duplicates.count <= 100)
        #expect(duplicates.keys.allSatisfy { deliveredAtKill[$0] == 1 })
        #expect(survivor.lastError == nil)
        print("postgres crash: \(acknowledged.count) acknowledged, \(deliveredAtKill.count) delivered before the kill, "
              + "\(duplicates.count) sent twice, survivor delivered \(survivor.metrics.snapshot.delivered)")
    }

    /// A sender on `outbox` that leaves other senders' leases alone.
    static func sender(_ apns: LocalAPNs, _ outbox: PostgresPushOutbox, window: Int,
                       lease: Duration = .seconds(60)) throws -> APNsSender {
        let key = try ProviderKey(keyID: LocalAPNs.keyID, path: apns.keyFile)
        // Requests time out before their lease ends, so no push is leased to two senders at once.
        let client = HTTP2Client.Configuration(endpoint: apns.endpoint, caFile: apns.caFile, connections: 1,
                                               requestTimeout: min(.seconds(30), lease - .seconds(1)))
        return try APNsSender(store: outbox, providerToken: try ProviderToken(key: key, teamID: LocalAPNs.teamID),
                              configuration: APNsSender.Configuration(client: client, window: window, lease: lease,
                                                                      idlePoll: .milliseconds(20),
                                                                      releasesLeasesOnStart: false))
    }

    static func waitUntilDrained(_ outbox: PostgresPushOutbox, timeout: TimeInterval = 60) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try outbox.pendingCount() > 0, Date() < deadline { usleep(20_000) }
    }
}
