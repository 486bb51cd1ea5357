import APNs
import APNsTestSupport
import Foundation
import Push
import Testing

/// Connections: a dropped one loses nothing, several share the load.
@Suite(.serialized)
struct ConnectionTests {
    @Test func aConnectionDroppedMidBurstLosesNothing() throws {
        let apns = try LocalAPNs()
        let fixture = try SenderFixture(apns, window: 200)
        let pushes = (0..<2000).map { SenderFixture.push(to: SenderFixture.token($0 % 50)) }
        try fixture.enqueue(pushes)
        // Answers held 20 ms, so about a window of requests is in flight when the connection drops.
        try apns.script(["dropAfter": 700])
        try apns.script(["delayMs": 20])
        try fixture.sender.start()
        let settled = try fixture.settled(pushes.map(\.apnsID), timeout: 120)
        #expect(settled.values.allSatisfy { $0.status == .delivered })
        let delivered = try apns.deliveredIDs()
        #expect(pushes.allSatisfy { (delivered[$0.apnsID.uuidString.lowercased()] ?? 0) >= 1 })
        let stats = try apns.stats()
        #expect((stats["connections"] as? Int ?? 0) >= 2)
        // Only what was in flight when the connection dropped can have gone twice.
        #expect((stats["duplicates"] as? Int ?? .max) <= 200)
        let resent = settled.values.filter { $0.attempts > 1 }
        #expect(resent.count >= 50 && resent.count <= 200, "\(resent.count) resent")
        #expect(resent.allSatisfy { $0.attempts == 2 })
    }

    @Test func fourConnectionsCarryTheBurstTogether() throws {
        let apns = try LocalAPNs(maxStreams: 100)
        let fixture = try SenderFixture(apns, connections: 4, window: 400)
        let pushes = (0..<2000).map { SenderFixture.push(to: SenderFixture.token($0)) }
        try fixture.enqueue(pushes)
        try fixture.sender.start()
        let settled = try fixture.settled(pushes.map(\.apnsID), timeout: 120)
        #expect(settled.values.allSatisfy { $0.status == .delivered })
        let stats = try apns.stats()
        #expect(stats["connections"] as? Int == 4)
        #expect(try apns.deliveredIDs().count == 2000)
        #expect(fixture.sender.inFlight == 0)
    }

    @Test func aSenderThatCannotConnectRetriesAndRecordsWhy() throws {
        let apns = try LocalAPNs()
        let fixture = try SenderFixture(apns)
        apns.stopListening()
        try fixture.sender.start()
        let push = SenderFixture.push(to: SenderFixture.token(1))
        try fixture.enqueue([push])
        let settled = try #require(try fixture.settled([push.apnsID])[push.apnsID])
        #expect(settled.status == .failed)
        #expect(settled.attempts == 8)
        #expect(settled.lastResult?.hasPrefix("NoAnswer: libcurl error 7") == true, "\(settled.lastResult ?? "")")
    }
}
