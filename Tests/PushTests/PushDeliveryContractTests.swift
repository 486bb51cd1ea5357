import Foundation
import PostgresStore
import PostgresTestSupport
import Push
import SharedState
import Synchronization
import Testing

/// One outbox under test: SQLite's (``PushStore``) or PostgreSQL's (``PostgresPushOutbox``), empty.
struct PushDeliverySubject {
    enum Backend: String, Sendable { case sqlite, postgres, postgresPushStore }

    let queue: any PushDeliveryQueue

    init(_ backend: Backend) throws {
        switch backend {
        case .sqlite:
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("push-delivery-\(UUID().uuidString).sqlite").path
            queue = try PushStore(database: DatabaseStore(path: path), now: Date.init)
        case .postgres:
            let pool = try PostgresPool(connectionString: try ThrowawayCluster.shared().makeDatabase())
            queue = try PostgresPushOutbox(pool: pool)
        case .postgresPushStore:
            let pool = try PostgresPool(connectionString: try ThrowawayCluster.shared().makeDatabase())
            queue = try PushStore(pool: pool, now: Date.init)
        }
    }

    /// A fixed wall clock; whole seconds and quarters, which both stores keep exactly.
    static let now = Date(timeIntervalSince1970: 1_800_000_000.25)

    static func token(_ n: UInt8) -> Data { Data(repeating: n, count: 32) }

    /// A Live Activity update to `token`, due `due` seconds from ``now``.
    static func push(to token: Data, due: TimeInterval = 0, collapseID: String? = nil,
                     priority: PushHeaders.Priority = .high, expiration: Date? = nil) -> OutboxPush {
        OutboxPush(activityID: "activity-1", deviceToken: token,
                   headers: PushHeaders(pushType: .liveActivity, bundleIdentifier: "com.example.widgethost",
                                        priority: priority, expiration: expiration),
                   payload: Data(#"{"aps":{"event":"update","content-state":{"score":"3–1 🚀"}}}"#.utf8),
                   collapseID: collapseID, createdAt: now.addingTimeInterval(-60), dueAt: now.addingTimeInterval(due))
    }

    func claim(at offset: TimeInterval, dueBy: TimeInterval? = nil, limit: Int = 100) throws -> [UUID] {
        try queue.claimDue(limit: limit, dueBy: Self.now.addingTimeInterval(dueBy ?? offset),
                           at: Self.now.addingTimeInterval(offset), lease: .seconds(30)).map(\.apnsID)
    }

    func fetch(_ push: OutboxPush) throws -> OutboxPush { try #require(try queue.push(apnsID: push.apnsID)) }
}

/// The promises every ``PushDeliveryQueue`` keeps, each a case run against both stores by the two suites below.
struct PushDeliveryContract: Sendable, CustomTestStringConvertible {
    let name: String
    let body: @Sendable (PushDeliverySubject) throws -> Void

    var testDescription: String { name }

    typealias S = PushDeliverySubject

    static let cases: [PushDeliveryContract] = [
        PushDeliveryContract(name: "a claim leases due pushes oldest due first; none is claimed again before its lease ends") { subject in
            let later = S.push(to: S.token(1), due: -5)
            let first = S.push(to: S.token(2), due: -10)
            let notDue = S.push(to: S.token(3), due: 100)
            try subject.queue.enqueue(contentsOf: [later, first, notDue])
            #expect(try subject.claim(at: 0) == [first.apnsID, later.apnsID])
            #expect(try subject.claim(at: 0).isEmpty)
            #expect(try subject.claim(at: 29.75).isEmpty, "leased for 30 s")
            #expect(try subject.claim(at: 30, limit: 1) == [first.apnsID], "a lease that ended is claimed again")
            #expect(try subject.claim(at: 30, dueBy: 100) == [later.apnsID, notDue.apnsID])
            #expect(try subject.queue.pendingCount() == 3)
            #expect(try subject.queue.releaseLeases() == 3)
            #expect(try subject.claim(at: 30, dueBy: 100).count == 3, "released leases are claimed at once")
        },
        PushDeliveryContract(name: "a claimed push is the push queued, field for field") { subject in
            let push = S.push(to: S.token(7), collapseID: "score", priority: .low,
                              expiration: S.now.addingTimeInterval(3600))
            try subject.queue.enqueue(contentsOf: [push])
            let claimed = try subject.queue.claimDue(limit: 5, dueBy: S.now, at: S.now, lease: .seconds(30))
            #expect(claimed == [push])
            #expect(try subject.fetch(push) == push)
        },
        PushDeliveryContract(name: "answers are recorded: delivered, failed for good, retried not before its time") { subject in
            let delivered = S.push(to: S.token(1))
            let refused = S.push(to: S.token(2))
            let retried = S.push(to: S.token(3))
            try subject.queue.enqueue(contentsOf: [delivered, refused, retried])
            #expect(try subject.claim(at: 0).count == 3)
            let answeredAt = S.now.addingTimeInterval(1)
            try subject.queue.record([
                DeliveryAttempt(apnsID: delivered.apnsID, outcome: .delivered, status: 200, result: "delivered"),
                DeliveryAttempt(apnsID: refused.apnsID, outcome: .failed, status: 400, result: "BadDeviceToken"),
                DeliveryAttempt(apnsID: retried.apnsID,
                                outcome: .retry(at: S.now.addingTimeInterval(10), providerTokenRetry: true),
                                status: 403, result: "ExpiredProviderToken"),
            ], at: answeredAt)
            let done = try subject.fetch(delivered)
            #expect(done.status == .delivered && done.attempts == 1 && done.apnsStatus == 200)
            #expect(done.lastResult == "delivered" && done.finishedAt == answeredAt)
            let failed = try subject.fetch(refused)
            #expect(failed.status == .failed && failed.lastResult == "BadDeviceToken" && failed.apnsStatus == 400)
            let waiting = try subject.fetch(retried)
            #expect(waiting.status == .pending && waiting.providerTokenRetries == 1 && waiting.apnsStatus == 403)
            #expect(waiting.nextAttemptAt == S.now.addingTimeInterval(10) && waiting.finishedAt == nil)
            #expect(try subject.queue.pendingCount() == 1)
            #expect(try subject.claim(at: 9.75).isEmpty, "not before the retry time")
            #expect(try subject.claim(at: 10) == [retried.apnsID])
        },
        PushDeliveryContract(name: "410 kills the token: waiting pushes to it fail, pushes in flight keep their answer") { subject in
            let dead = S.token(0xD0)
            let answered = S.push(to: dead)
            let inFlight = S.push(to: dead)
            let waiting = S.push(to: dead, due: 100)
            let other = S.push(to: S.token(0xA1))
            try subject.queue.enqueue(contentsOf: [answered, inFlight, waiting, other])
            #expect(try subject.claim(at: 0).count == 3)
            #expect(try subject.queue.deadTokenReason(dead) == nil)
            try subject.queue.record([DeliveryAttempt(apnsID: answered.apnsID, outcome: .unregistered, status: 410,
                                                      result: "Unregistered")], at: S.now)
            #expect(try subject.fetch(answered).status == .failed)
            #expect(try subject.fetch(answered).lastResult == "Unregistered")
            #expect(try subject.queue.deadTokenReason(dead) == "Unregistered")
            let failedUnsent = try subject.fetch(waiting)
            #expect(failedUnsent.status == .failed && failedUnsent.attempts == 0)
            #expect(failedUnsent.lastResult?.hasPrefix("TokenInvalidated") == true)
            #expect(try subject.fetch(inFlight).status == .pending, "its own answer is on its way")
            // Its sender died: once the lease ends, the claim fails it instead of sending it.
            #expect(try subject.claim(at: 30, dueBy: 200) == [other.apnsID])
            #expect(try subject.fetch(inFlight).status == .failed)
            #expect(throws: PushOutboxError.self) { try subject.queue.enqueue(contentsOf: [S.push(to: dead)]) }
            #expect(try subject.queue.pendingCount() == 1)
        },
        PushDeliveryContract(name: "a batch is queued whole or not at all") { subject in
            let first = S.push(to: S.token(1))
            var twin = S.push(to: S.token(2))
            twin.apnsID = first.apnsID
            #expect(throws: PushOutboxError.duplicateAPNsID(first.apnsID)) {
                try subject.queue.enqueue(contentsOf: [first, S.push(to: S.token(3)), twin])
            }
            var empty = S.push(to: S.token(4))
            empty.payload = Data()
            #expect(throws: PushOutboxError.invalidPush(field: "payload", reason: "is empty")) {
                try subject.queue.enqueue(contentsOf: [S.push(to: S.token(5)), empty])
            }
            #expect(try subject.queue.pendingCount() == 0)
            #expect(try subject.queue.push(apnsID: first.apnsID) == nil)
            try subject.queue.enqueue(contentsOf: [first])
            #expect(throws: PushOutboxError.duplicateAPNsID(first.apnsID)) {
                try subject.queue.enqueue(contentsOf: [first])
            }
            #expect(try subject.queue.pendingCount() == 1)
        },
        PushDeliveryContract(name: "claimers racing each other never get one push twice") { subject in
            let pushes = (0..<300).map { S.push(to: S.token(UInt8($0 % 200)), due: -Double($0 % 17)) }
            try subject.queue.enqueue(contentsOf: pushes)
            let claims = Mutex<[UUID]>([])
            let errors = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do {
                    while true {
                        let got = try subject.claim(at: 0, limit: 7)
                        if got.isEmpty { return }
                        claims.withLock { $0 += got }
                    }
                } catch {
                    errors.withLock { $0.append("\(error)") }
                }
            }
            #expect(errors.withLock { $0 }.isEmpty)
            let claimed = claims.withLock { $0 }
            #expect(claimed.count == 300)
            #expect(Set(claimed) == Set(pushes.map(\.apnsID)))
        },
    ]
}

@Suite("Push delivery contract on SQLite")
struct SQLitePushDeliveryContractTests {
    @Test(arguments: PushDeliveryContract.cases + PushDeliveryContract.batchCases)
    func contract(_ contract: PushDeliveryContract) throws {
        try contract.body(PushDeliverySubject(.sqlite))
    }
}

@Suite("Push delivery contract on PostgreSQL",
       .enabled(if: ThrowawayCluster.isAvailable, Comment(rawValue: ThrowawayCluster.skipReason)))
struct PostgresPushDeliveryContractTests {
    @Test(arguments: PushDeliveryContract.cases + PushDeliveryContract.batchCases)
    func contract(_ contract: PushDeliveryContract) throws {
        try contract.body(PushDeliverySubject(.postgres))
    }
}

@Suite("Push delivery contract on a whole push store on PostgreSQL",
       .enabled(if: ThrowawayCluster.isAvailable, Comment(rawValue: ThrowawayCluster.skipReason)))
struct PostgresPushStoreDeliveryContractTests {
    @Test(arguments: PushDeliveryContract.cases + PushDeliveryContract.batchCases)
    func contract(_ contract: PushDeliveryContract) throws {
        try contract.body(PushDeliverySubject(.postgresPushStore))
    }
}
