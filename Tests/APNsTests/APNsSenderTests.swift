import APNs
import APNsTestSupport
import Foundation
import Push
import Testing

/// The sender end to end against the local APNs: each answer leads to what the outbox records.
@Suite(.serialized)
struct APNsSenderTests {
    @Test func deliversEveryPushOnceWithItsAPNsIDAndAVerifiedProviderToken() throws {
        let apns = try LocalAPNs()
        let fixture = try SenderFixture(apns)
        try fixture.sender.start()
        let pushes = (0..<200).map { SenderFixture.push(to: SenderFixture.token($0 % 7)) }
        try fixture.enqueue(pushes)
        let settled = try fixture.settled(pushes.map(\.apnsID))
        #expect(settled.values.allSatisfy { $0.status == .delivered && $0.apnsStatus == 200 && $0.attempts == 1 })
        let delivered = try apns.deliveredIDs()
        #expect(delivered.count == 200)
        #expect(pushes.allSatisfy { delivered[$0.apnsID.uuidString.lowercased()] == 1 })
        let stats = try apns.stats()
        #expect(stats["providerTokens"] as? Int == 1)
        #expect(stats["connections"] as? Int == 1)
        let received = try apns.pushes(limit: 1)
        #expect(received.first?["topic"] as? String == LocalAPNs.bundleID + ".push-type.liveactivity")
        #expect(received.first?["pushType"] as? String == "liveactivity")
        #expect(received.first?["priority"] as? String == "10")
        let metrics = fixture.sender.metrics.snapshot
        #expect(metrics.delivered == 200 && metrics.latencyCount == 200)
    }

    @Test(arguments: [(400, "BadDeviceToken"), (400, "TopicDisallowed"), (400, "DeviceTokenNotForTopic")])
    func aRefusalFailsThePushWithoutRetrying(status: Int, reason: String) throws {
        let apns = try LocalAPNs()
        let token = SenderFixture.token(1)
        try apns.script(["token": token.hex, "status": status, "reason": reason])
        let fixture = try SenderFixture(apns)
        try fixture.sender.start()
        let push = SenderFixture.push(to: token)
        try fixture.enqueue([push])
        let settled = try #require(try fixture.settled([push.apnsID])[push.apnsID])
        #expect(settled.status == .failed)
        #expect(settled.lastResult == reason)
        #expect(settled.apnsStatus == status)
        #expect(settled.attempts == 1)
        usleep(200_000)
        #expect(try apns.stats()["requests"] as? Int == 1)
        #expect(fixture.sender.metrics.snapshot.failedByReason[reason] == 1)
    }

    @Test func unregisteredInvalidatesTheTokenAndNoLaterPushUsesIt() throws {
        let apns = try LocalAPNs()
        let dead = SenderFixture.token(2)
        let alive = SenderFixture.token(3)
        try apns.script(["token": dead.hex, "status": 410, "reason": "Unregistered"])
        let fixture = try SenderFixture(apns)
        try fixture.store.tokens.register(dead, in: .activity(id: "activity-1"))
        let first = SenderFixture.push(to: dead)
        // Queued before the answer, due after it: it must fail without being sent.
        let later = SenderFixture.push(to: dead, due: Date().addingTimeInterval(1.5))
        let other = SenderFixture.push(to: alive)
        try fixture.enqueue([first, later, other])
        try fixture.sender.start()
        let settled = try fixture.settled([first.apnsID, later.apnsID, other.apnsID])
        #expect(settled[first.apnsID]?.status == .failed)
        #expect(settled[first.apnsID]?.lastResult == "Unregistered")
        #expect(settled[first.apnsID]?.apnsStatus == 410)
        #expect(settled[later.apnsID]?.status == .failed)
        #expect(settled[later.apnsID]?.lastResult?.hasPrefix("TokenInvalidated") == true)
        #expect(settled[later.apnsID]?.attempts == 0)
        #expect(settled[other.apnsID]?.status == .delivered)
        let record = try #require(try fixture.store.tokens.lookup(dead))
        #expect(record.invalidatedAt != nil)
        #expect(record.invalidReason == "Unregistered")
        #expect(throws: PushOutboxError.self) { try fixture.store.outbox.enqueue(SenderFixture.push(to: dead)) }
        let toDead = try apns.pushes().filter { $0["token"] as? String == dead.hex }
        #expect(toDead.count == 1)
    }

    @Test func aProviderTokenSignedWithAnotherKeyFailsWithoutRetrying() throws {
        let apns = try LocalAPNs()
        let other = apns.directory.appendingPathComponent("other.p8").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", other]
        try process.run()
        process.waitUntilExit()
        let fixture = try SenderFixture(apns, keyFile: other)
        try fixture.sender.start()
        let push = SenderFixture.push(to: SenderFixture.token(9))
        try fixture.enqueue([push])
        let settled = try #require(try fixture.settled([push.apnsID])[push.apnsID])
        #expect(settled.status == .failed)
        #expect(settled.lastResult == "InvalidProviderToken")
        #expect(settled.apnsStatus == 403)
        #expect(settled.attempts == 1)
        #expect(fixture.sender.metrics.snapshot.providerTokenRenewals == 0)
    }

    @Test func throttlingAndServerErrorsAreRetriedWithBackoffUntilDelivered() throws {
        let apns = try LocalAPNs()
        try apns.script(["throttle": 3])
        let fixture = try SenderFixture(apns)
        try fixture.sender.start()
        let push = SenderFixture.push(to: SenderFixture.token(4))
        try fixture.enqueue([push])
        let settled = try #require(try fixture.settled([push.apnsID])[push.apnsID])
        #expect(settled.status == .delivered)
        #expect(settled.attempts == 4)
        try apns.script(["serverErrors": 2, "status": 503])
        let second = SenderFixture.push(to: SenderFixture.token(4))
        try fixture.enqueue([second])
        let again = try #require(try fixture.settled([second.apnsID])[second.apnsID])
        #expect(again.status == .delivered)
        #expect(again.attempts == 3)
        #expect(fixture.sender.metrics.snapshot.retries == 5)
        let answers = try apns.pushes().map { $0["status"] as? Int }
        #expect(answers == [429, 429, 429, 200, 503, 503, 200])
    }

    @Test func retriesStopAfterEightAttempts() throws {
        let apns = try LocalAPNs()
        try apns.script(["throttle": 100])
        let fixture = try SenderFixture(apns)
        try fixture.sender.start()
        let push = SenderFixture.push(to: SenderFixture.token(5))
        try fixture.enqueue([push])
        let settled = try #require(try fixture.settled([push.apnsID])[push.apnsID])
        #expect(settled.status == .failed)
        #expect(settled.attempts == 8)
        #expect(settled.lastResult == "TooManyRequests (after 8 attempts)")
        #expect(try apns.stats()["requests"] as? Int == 8)
    }

    @Test func expiredProviderTokenGetsANewTokenAndOneRetry() throws {
        let apns = try LocalAPNs()
        try apns.script(["expireProviderToken": true])
        let fixture = try SenderFixture(apns)
        try fixture.sender.start()
        let push = SenderFixture.push(to: SenderFixture.token(6))
        try fixture.enqueue([push])
        let settled = try #require(try fixture.settled([push.apnsID])[push.apnsID])
        #expect(settled.status == .delivered)
        #expect(settled.attempts == 2)
        #expect(settled.providerTokenRetries == 1)
        let tokens = try apns.pushes().compactMap { $0["jwtIat"] as? Int }
        #expect(tokens.count == 1)  // the refused request carried no verified token
        #expect(fixture.sender.metrics.snapshot.providerTokenRenewals == 1)
    }

    @Test func expiredProviderTokenTwiceFailsThePush() throws {
        let apns = try LocalAPNs()
        // The stand-in two hours ahead: every token the sender signs is more than an hour old to it.
        try apns.setClock(Date().addingTimeInterval(2 * 3600))
        let fixture = try SenderFixture(apns)
        try fixture.sender.start()
        let push = SenderFixture.push(to: SenderFixture.token(7))
        try fixture.enqueue([push])
        let settled = try #require(try fixture.settled([push.apnsID])[push.apnsID])
        #expect(settled.status == .failed)
        #expect(settled.attempts == 2)
        #expect(settled.lastResult == "ExpiredProviderToken (again, with a new provider token)")
        #expect(try apns.stats()["requests"] as? Int == 2)
    }

    @Test func anOversizedOrBrokenPushIsRefusedWhenQueuedAndNothingIsQueued() throws {
        let apns = try LocalAPNs()
        let fixture = try SenderFixture(apns)
        let base = SenderFixture.push(to: SenderFixture.token(8)).payload.count
        let fits = SenderFixture.push(to: SenderFixture.token(8), bytes: PushOutbox.maximumPayloadBytes - base)
        #expect(fits.payload.count == PushOutbox.maximumPayloadBytes)
        try fixture.store.outbox.enqueue(fits)
        let over = SenderFixture.push(to: SenderFixture.token(8), bytes: PushOutbox.maximumPayloadBytes - base + 1)
        #expect(throws: PushOutboxError.invalidPush(field: "payload", reason: "is 4097 bytes; APNs takes at most 4096")) {
            try fixture.store.outbox.enqueue(over)
        }
        var notObject = SenderFixture.push(to: SenderFixture.token(8))
        notObject.payload = Data("[1]".utf8)
        #expect(throws: PushOutboxError.invalidPush(field: "payload", reason: "is not a JSON object")) {
            try fixture.store.outbox.enqueue(notObject)
        }
        #expect(throws: PushOutboxError.duplicateAPNsID(fits.apnsID)) { try fixture.store.outbox.enqueue(fits) }
        #expect(try fixture.store.outbox.pushes().map(\.apnsID) == [fits.apnsID])
        // The largest payload APNs takes goes through.
        try fixture.sender.start()
        fixture.sender.wake()
        #expect(try fixture.settled([fits.apnsID])[fits.apnsID]?.status == .delivered)
    }

    @Test func aChannelPushFailsAsUnsupported() throws {
        let apns = try LocalAPNs()
        let fixture = try SenderFixture(apns)
        try fixture.sender.start()
        let push = SenderFixture.push(to: nil, channel: "dHN0LWNoYW5uZWw=")
        try fixture.enqueue([push])
        let settled = try #require(try fixture.settled([push.apnsID])[push.apnsID])
        #expect(settled.status == .failed)
        #expect(settled.lastResult?.hasPrefix("UnsupportedChannelPush") == true)
        #expect(try apns.stats()["requests"] as? Int == 0)
    }
}

extension Data {
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
