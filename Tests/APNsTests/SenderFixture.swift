import APNs
import APNsTestSupport
import Foundation
import Push
import SharedState
import Synchronization

/// A push store on disk, a sender pointed at a local APNs, and helpers to queue pushes and wait for their fate.
final class SenderFixture: @unchecked Sendable {
    // @unchecked: set in init, then only read; the sender and store are Sendable themselves.
    let directory: URL
    let store: PushStore
    let sender: APNsSender
    let providerToken: ProviderToken
    let clock: TestClock

    /// A settable clock for the provider token's `iat` (the stand-in's clock is set to match).
    final class TestClock: Sendable {
        private let date = Mutex(Date())
        var now: Date { date.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { date.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    init(_ apns: LocalAPNs, connections: Int = 1, window: Int? = nil,
         retry: RetryPolicy = RetryPolicy(maximumAttempts: 8, firstDelay: .milliseconds(20), maximumDelay: .milliseconds(160)),
         directory: URL? = nil, keyFile: String? = nil) throws {
        let directory = directory ?? apns.directory.appendingPathComponent("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        store = try PushStore(database: DatabaseStore(path: directory.appendingPathComponent("push.sqlite").path),
                              bundleIdentifier: LocalAPNs.bundleID, now: Date.init)
        let clock = TestClock()
        self.clock = clock
        let key = try ProviderKey(keyID: LocalAPNs.keyID, path: keyFile ?? apns.keyFile)
        providerToken = try ProviderToken(key: key, teamID: LocalAPNs.teamID, now: { clock.now })
        let client = HTTP2Client.Configuration(endpoint: apns.endpoint, caFile: apns.caFile, connections: connections)
        sender = try APNsSender(store: store, providerToken: providerToken,
                                configuration: APNsSender.Configuration(client: client, window: window, retry: retry,
                                                                        idlePoll: .milliseconds(20)))
    }

    deinit { sender.stop(grace: .seconds(1)) }

    /// A 32-byte device token numbered `n`.
    static func token(_ n: Int) -> Data {
        var bytes = [UInt8](repeating: 0xAB, count: 32)
        withUnsafeBytes(of: UInt64(n).bigEndian) { bytes.replaceSubrange(24..<32, with: $0) }
        return Data(bytes)
    }

    /// A Live Activity update to `token`, due now (or `due`).
    static func push(to token: Data?, due: Date = Date(), channel: String? = nil, bytes: Int = 0) -> OutboxPush {
        let padding = String(repeating: "x", count: bytes)
        let payload = #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"pad":"\#(padding)"}}}"#
        return OutboxPush(
            apnsID: UUID(), activityID: "activity-1", event: .update, deviceToken: channel == nil ? token : nil,
            headers: PushHeaders(pushType: .liveActivity, bundleIdentifier: LocalAPNs.bundleID, priority: .high,
                                 channelID: channel),
            payload: Data(payload.utf8), createdAt: Date(), dueAt: due)
    }

    /// Queues `pushes`, wakes the sender.
    func enqueue(_ pushes: [OutboxPush]) throws {
        for push in pushes { try store.outbox.enqueue(push) }
        sender.wake()
    }

    /// Waits until none of `ids` is pending (at most `timeout` seconds); returns their pushes.
    func settled(_ ids: [UUID], timeout: TimeInterval = 60) throws -> [UUID: OutboxPush] {
        let deadline = Date().addingTimeInterval(timeout)
        let wanted = Set(ids)
        while true {
            let pending = try store.outbox.pushes(status: .pending, limit: 100_000).filter { wanted.contains($0.apnsID) }
            if pending.isEmpty || Date() > deadline {
                let all = try store.outbox.pushes(limit: 1_000_000).filter { wanted.contains($0.apnsID) }
                return Dictionary(all.map { ($0.apnsID, $0) }, uniquingKeysWith: { first, _ in first })
            }
            usleep(20_000)
        }
    }
}
