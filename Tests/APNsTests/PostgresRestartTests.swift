import APNs
import APNsTestSupport
import Foundation
import PostgresStore
import PostgresTestSupport
import Push
import Testing

/// Senders on a PostgreSQL outbox while the server goes away and comes back: they keep running through the outage
/// (each failed claim or record noted in ``APNsSender/lastError``), and once the server is back they deliver every
/// push that was acknowledged, sending twice only what was in flight when it went away.
@Suite(.serialized, .enabled(if: ThrowawayCluster.isAvailable, Comment(rawValue: ThrowawayCluster.skipReason)))
struct PostgresRestartTests {
    @Test("PostgreSQL stopped mid-burst and restarted: senders ride it out, every acknowledged push delivered",
          .timeLimit(.minutes(3)))
    func sendersRideOutARestartMidBurst() throws {
        let apns = try LocalAPNs()
        let cluster = try ThrowawayCluster.makeCluster()
        defer { cluster.remove() }
        let database = try cluster.makeDatabase()
        let producer = try PostgresPushOutbox(pool: PostgresPool(connectionString: database))
        // Two senders with pools of their own, as two daemons; leases shorter than the outage, so the leases of
        // what was in flight when the server went away have ended when it comes back.
        let senders = try (0..<2).map { _ in
            try PostgresSendersTests.sender(apns, try PostgresPushOutbox(pool: PostgresPool(connectionString: database)),
                                            window: 16, lease: .seconds(2))
        }
        for sender in senders { try sender.start() }
        defer { for sender in senders { sender.stop(grace: .seconds(1)) } }

        var acknowledged: [UUID] = []
        var attempted: Set<String> = []
        var refusedWhileDown = 0
        var deliveredAtStop: [String: Int] = [:]
        var deliveredAtRestart: [String: Int] = [:]
        var sentBeforeRestart: [Int] = []
        var device = 0
        func pushes(_ count: Int) -> [OutboxPush] {
            (0..<count).map { _ in
                defer { device += 1 }
                return SenderFixture.push(to: SenderFixture.token(device % 13))
            }
        }
        var burst: [OutboxPush] = []
        for round in 0..<90 {
            if round == 30 {
                // Mid-burst: a burst is being sent (answers coming in, most of it still queued) when it stops.
                burst = pushes(500)
                try producer.enqueue(contentsOf: burst)
                acknowledged += burst.map(\.apnsID)
                attempted.formUnion(burst.map { $0.apnsID.uuidString.lowercased() })
                let ids = Set(burst.map { $0.apnsID.uuidString.lowercased() })
                let deadline = Date().addingTimeInterval(20)
                while try apns.deliveredIDs().keys.filter(ids.contains).count < 20, Date() < deadline { usleep(2000) }
                try cluster.stopImmediately()
                deliveredAtStop = try apns.deliveredIDs()
            }
            if round == 60 {
                // About three seconds down: longer than a lease and than a request's timeout.
                deliveredAtRestart = try apns.deliveredIDs()
                sentBeforeRestart = senders.map { $0.metrics.snapshot.delivered }
                try cluster.start()
            }
            let batch = pushes(20)
            attempted.formUnion(batch.map { $0.apnsID.uuidString.lowercased() })
            do {
                try producer.enqueue(contentsOf: batch)
                acknowledged += batch.map(\.apnsID)
                #expect(!(30..<60).contains(round), "round \(round): a batch acknowledged while the server was down")
            } catch let error as PostgresError {
                #expect((30..<60).contains(round), "round \(round): \(error)")
                #expect([.unavailable, .commitOutcomeUnknown].contains(error.kind), "\(error)")
                refusedWhileDown += 1
            }
            usleep(100_000)
        }
        #expect(refusedWhileDown == 30)
        let burstAtStop = burst.filter { deliveredAtStop[$0.apnsID.uuidString.lowercased()] != nil }.count
        let burstAtRestart = burst.filter { deliveredAtRestart[$0.apnsID.uuidString.lowercased()] != nil }.count
        #expect(burstAtStop >= 20 && burstAtRestart < 400,
                "the burst was under way at the stop, most of it left for after the restart: \(burstAtStop), \(burstAtRestart)")
        #expect(senders.allSatisfy { $0.lastError != nil }, "each sender met the outage")
        try PostgresSendersTests.waitUntilDrained(producer)

        let delivered = try apns.deliveredIDs()
        let lost = acknowledged.filter { delivered[$0.uuidString.lowercased()] == nil }
        #expect(acknowledged.count == 60 * 20 + 500)
        #expect(lost.isEmpty, "\(lost.count) acknowledged pushes never reached APNs")
        #expect(delivered.keys.allSatisfy(attempted.contains), "only pushes that were queued are sent")
        let settled = try producer.pushes(limit: 10_000)
        #expect(settled.count == acknowledged.count && settled.allSatisfy { $0.status == .delivered })
        // Sent twice: only what was in flight across the outage, at most both windows, each sent before the restart.
        let twice = delivered.filter { $0.value > 1 }
        #expect(twice.count <= 32 && twice.values.allSatisfy { $0 == 2 }, "\(twice)")
        #expect(twice.keys.allSatisfy { deliveredAtRestart[$0] == 1 }, "\(twice)")
        let sentAfterRestart = zip(senders, sentBeforeRestart).map { $0.metrics.snapshot.delivered - $1 }
        #expect(sentAfterRestart.allSatisfy { $0 > 0 }, "both senders kept running: \(sentAfterRestart)")
        print("postgres restart: \(acknowledged.count) acknowledged, of the burst of 500 \(burstAtStop) delivered at the "
              + "stop and \(burstAtRestart) at the restart, \(twice.count) sent twice, after the restart "
              + "\(sentAfterRestart); last errors: \(senders.map { $0.lastError ?? "" })")
    }
}
