import Foundation
import JSON
import PostgresStore
import PostgresTestSupport
import Push
import SharedState
import Testing

/// One whole push store under test (registry, planner, outbox), empty: on a SQLite file or in a PostgreSQL database.
struct PushStoreSubject {
    enum Backend: String, Sendable, CaseIterable { case sqlite, postgres }

    let store: PushStore
    let clock = PlannerFixture.Clock()

    init(_ backend: Backend) throws {
        let clock = clock
        switch backend {
        case .sqlite:
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("push-store-\(UUID().uuidString).sqlite").path
            store = try PushStore(database: DatabaseStore(path: path), bundleIdentifier: "com.example.parcels",
                                  now: { clock.now })
        case .postgres:
            let pool = try PostgresPool(connectionString: try ThrowawayCluster.shared().makeDatabase())
            store = try PushStore(pool: pool, bundleIdentifier: "com.example.parcels", now: { clock.now })
        }
    }

    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let type = "ParcelAttributes"

    static func token(_ byte: UInt8) -> Data { Data(repeating: byte, count: 32) }

    @discardableResult
    func submit(_ state: JSONValue, at offset: TimeInterval, activity: String = "a1") throws -> PlannerDecision {
        try store.planner.submit(activityID: activity, attributesType: Self.type, state: state,
                                 at: Self.start.addingTimeInterval(offset))
    }

    /// What a decision says, without its random `apns-id` (whether it has one, and its push's content, instead).
    func line(_ decision: PlannerDecision) throws -> String {
        var text = "#\(decision.id) \(decision.activityID) \(decision.kind.rawValue) at \(decision.at.timeIntervalSince1970)"
        text += " p\(decision.priority.map(String.init) ?? "-") due \(decision.dueAt?.timeIntervalSince1970 ?? -1)"
        text += " state \(decision.state?.canonicalText ?? "-"): \(decision.reason)"
        if let id = decision.apnsID {
            let push = try #require(try store.outbox.push(apnsID: id))
            text += " → " + Self.line(push)
        }
        return text
    }

    static func line(_ push: OutboxPush) -> String {
        "\(push.status.rawValue) \(push.event.rawValue) to \(push.deviceToken.map(PushTokenText.hex) ?? "-")"
            + " p\(push.priority) \(push.headers.bundleIdentifier) \(push.headers.pushType.rawValue)"
            + " created \(push.createdAt.timeIntervalSince1970) due \(push.dueAt.timeIntervalSince1970)"
            + " attempts \(push.attempts) \(push.lastResult ?? "-") "
            + String(decoding: push.payload, as: UTF8.self)
    }

    static func line(_ record: PushTokenRecord) -> String {
        "\(PushTokenText.hex(record.token).prefix(4)) \(record.slot.kind) device \(record.device ?? "-")"
            + " type \(record.attributesType ?? "-") kinds \(record.widgetKinds) at \(record.registeredAt.timeIntervalSince1970)"
            + " replaced \(record.replacedAt?.timeIntervalSince1970 ?? -1)"
            + " invalid \(record.invalidatedAt?.timeIntervalSince1970 ?? -1) \(record.invalidReason ?? "-")"
    }

    /// The error `body` throws, as text naming its type, or "no error".
    static func error(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "no error"
        } catch {
            return "\(Swift.type(of: error)): \(error)"
        }
    }
}

/// The promises the registry and the planner keep on both stores. Each case checks its own expectations and returns
/// a transcript (decisions, queued pushes, registrations, errors) that must be the same on SQLite and PostgreSQL.
struct PushStoreContract: Sendable, CustomTestStringConvertible {
    let name: String
    let body: @Sendable (PushStoreSubject) throws -> [String]

    var testDescription: String { name }

    typealias S = PushStoreSubject

    static let cases: [PushStoreContract] = [
        PushStoreContract(name: "tokens: created, unchanged, rotated with history; invalid ones never come back") { s in
            let tokens = s.store.tokens
            var log: [String] = []
            #expect(try tokens.register(S.token(1), in: .activity(id: "a1"), device: "d1") == .created)
            #expect(try tokens.register(S.token(1), in: .activity(id: "a1"), device: "d1") == .unchanged)
            s.clock.advance(10)
            #expect(try tokens.register(S.token(2), in: .activity(id: "a1")) == .rotated(previous: S.token(1)))
            s.clock.advance(10)
            #expect(try tokens.register(S.token(1), in: .activity(id: "a1")) == .rotated(previous: S.token(2)),
                    "an old token coming back is a rotation")
            try tokens.register(S.token(3), in: .widgets(device: "d1"), widgetKinds: ["Parcel"])
            try tokens.register(S.token(3), in: .widgets(device: "d1"), widgetKinds: ["Parcel", "Map"])
            try tokens.register(S.token(4), in: .pushToStart(device: "d1", attributesType: S.type))
            log += try tokens.history(.activity(id: "a1")).map(S.line)
            #expect(try tokens.current(.activity(id: "a1"))?.token == S.token(1))
            log += try tokens.tokens(device: "d1").map(S.line)
            #expect(try tokens.lookup(S.token(3))?.widgetKinds == ["Parcel", "Map"])
            try tokens.invalidate(S.token(1), reason: "Unregistered")
            try tokens.invalidate(S.token(1), reason: "again")
            #expect(try tokens.current(.activity(id: "a1")) == nil)
            log.append(try S.line(#require(try tokens.lookup(S.token(1)))))
            log.append(S.error { try tokens.register(S.token(1), in: .activity(id: "a1")) })
            log.append(S.error { try tokens.register(S.token(3), in: .activity(id: "a2")) })
            log.append(S.error { try tokens.register(S.token(5), in: .activity(id: "")) })
            log.append(S.error { try tokens.register(S.token(5), in: .widgets(device: "d\u{0}1")) })
            log.append(S.error { try tokens.invalidate(S.token(9), reason: "x") })
            log.append(S.error { _ = try tokens.tokens(device: String(repeating: "d", count: 257)) })
            #expect(log.suffix(6).allSatisfy { $0.hasPrefix("PushTokenError") })
            #expect(try tokens.lookup(S.token(5)) == nil, "a refused registration changes nothing")
            return log
        },
        PushStoreContract(name: "channels: registered once for one type; closed ones are kept and never reopened") { s in
            let channels = s.store.channels
            var log: [String] = []
            #expect(try channels.register("c1", attributesType: S.type))
            #expect(try !channels.register("c1", attributesType: S.type))
            try channels.register("c2", attributesType: "Other")
            try channels.register("a", attributesType: "Other")
            try channels.register("B", attributesType: "Other")
            log.append(S.error { try channels.register("c1", attributesType: "Other") })
            s.clock.advance(5)
            try channels.close("c1", reason: "deleted")
            try channels.close("c1", reason: "again")
            log.append(S.error { try channels.register("c1", attributesType: S.type) })
            log.append(S.error { try channels.close("c9", reason: "x") })
            log.append(S.error { try channels.register("c\u{7F}", attributesType: S.type) })
            #expect(try channels.channels().map(\.id) == ["B", "a", "c2"], "ties in byte order, whatever the collation")
            let all = try channels.channels(includingClosed: true)
            #expect(all.map(\.id) == ["B", "a", "c1", "c2"])
            let closed = try #require(all.first { $0.id == "c1" })
            #expect(closed.closeReason == "deleted" && closed.closedAt == S.start.addingTimeInterval(5))
            log += all.map { "\($0.id) \($0.attributesType) \($0.registeredAt.timeIntervalSince1970) "
                + "\($0.closedAt?.timeIntervalSince1970 ?? -1) \($0.closeReason ?? "-")" }
            return log
        },
        PushStoreContract(name: "the planner sends, holds, coalesces and flushes; each push is queued with its decision") { s in
            try s.store.tokens.register(S.token(0xA1), in: .activity(id: "a1"))
            var decisions: [PlannerDecision] = []
            decisions.append(try s.submit(parcel("in transit", progress: 0.1), at: 0))
            decisions.append(try s.submit(parcel("in transit", progress: 0.2), at: 10))
            decisions.append(try s.submit(parcel("in transit", progress: 0.3), at: 20))
            decisions.append(try s.submit(parcel("in transit", progress: 0.3), at: 20))
            #expect(decisions.map(\.kind) == [.sent, .deferredByInterval, .coalesced, .coalesced])
            #expect(try s.store.planner.hasHeldStates())
            #expect(try s.store.planner.nextFlushDate() == S.start.addingTimeInterval(60))
            #expect(try s.store.planner.flush(now: S.start.addingTimeInterval(59)).isEmpty)
            let flushed = try s.store.planner.flush(now: S.start.addingTimeInterval(60))
            #expect(flushed.map(\.kind) == [.sent])
            decisions += flushed
            decisions.append(try s.submit(parcel("late"), at: 90, activity: "a2"))
            #expect(decisions.last?.kind == .noToken)
            #expect(try s.store.outbox.pushes().count == 2)
            #expect(try s.store.planner.decisionCounts() == [.sent: 2, .deferredByInterval: 1, .coalesced: 2, .noToken: 1])
            #expect(try s.store.planner.decisions(activityID: "a1", kinds: [.sent], limit: 1).map(\.id) == [flushed[0].id])
            let recorded = try s.store.planner.decisions()
            #expect(recorded == decisions, "what was returned is what was recorded")
            return try recorded.map(s.line) + [try s.store.planner.decisionCounts().sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.key.rawValue)=\($0.value)" }.joined(separator: " ")]
        },
        PushStoreContract(name: "policies: alerts within the budget, completion ends, then after_end") { s in
            var policy = PlannerPolicy()
            policy.minimumInterval = 0
            policy.highPriorityPerHour = 1
            policy.alert = [MemberRule(pointer: "/status", values: ["delayed"])]
            policy.completion = [MemberRule(pointer: "/status", values: ["delivered"])]
            try s.store.planner.setPolicy(policy, for: S.type)
            policy.alertTitle = "Parcel"
            try s.store.planner.setPolicy(policy, for: S.type)
            #expect(try s.store.planner.policy(for: S.type) == policy)
            #expect(try s.store.planner.policy(for: "Other") == PlannerPolicy())
            try s.store.tokens.register(S.token(0xA1), in: .activity(id: "a1"))
            var log: [String] = []
            for (offset, status) in [(0.0, "in transit"), (10, "delayed"), (20, "in transit"), (30, "delayed"),
                                     (40, "delivered"), (50, "in transit")] {
                log.append(try s.line(try s.submit(parcel(status), at: offset)))
            }
            #expect(log[1].contains("p10") && log.last?.contains("after_end") == true)
            var broken = PlannerPolicy()
            broken.minimumInterval = -1
            log.append(S.error { try s.store.planner.setPolicy(broken, for: S.type) })
            log.append(S.error { try s.store.planner.setPolicy(policy, for: "") })
            #expect(try s.store.planner.policy(for: S.type) == policy, "a refused policy changes nothing")
            return log
        },
        PushStoreContract(name: "a batch is judged in one transaction: a refused change records nothing") { s in
            try s.store.tokens.register(S.token(0xA1), in: .activity(id: "a1"))
            try s.submit(parcel("first"), at: 0)
            var log: [String] = []
            log.append(S.error {
                _ = try s.store.planner.submit([
                    StateChange(activityID: "a2", attributesType: S.type, state: parcel("x"), at: S.start),
                    StateChange(activityID: "a1", attributesType: "Other", state: parcel("y"), at: S.start),
                ])
            })
            log.append(S.error { try s.store.planner.submit(activityID: "a1", attributesType: S.type, state: .int(1)) })
            log.append(S.error { try s.store.planner.submit(activityID: "", attributesType: S.type, state: parcel("z")) })
            #expect(try s.store.planner.decisions().count == 1)
            #expect(try s.store.outbox.pushes().count == 1)
            return log
        },
        PushStoreContract(name: "a 410 recorded by the sender invalidates the token in the registry") { s in
            try s.store.tokens.register(S.token(0xA1), in: .activity(id: "a1"))
            let sent = try s.submit(parcel("in transit"), at: 0)
            let claimed = try s.store.claimDue(limit: 10, dueBy: S.start, at: S.start, lease: .seconds(30))
            #expect(claimed.map(\.apnsID) == [sent.apnsID].compactMap { $0 })
            try s.store.record([DeliveryAttempt(apnsID: try #require(sent.apnsID), outcome: .unregistered, status: 410,
                                                result: "Unregistered")], at: S.start.addingTimeInterval(1))
            let record = try #require(try s.store.tokens.lookup(S.token(0xA1)))
            #expect(record.invalidatedAt == S.start.addingTimeInterval(1) && record.invalidReason == "Unregistered")
            #expect(try s.store.tokens.current(.activity(id: "a1")) == nil)
            #expect(try s.store.deadTokenReason(S.token(0xA1)) == "Unregistered")
            let after = try s.submit(parcel("next"), at: 120)
            #expect(after.kind == .noToken)
            var own = OutboxPush(activityID: "a1", deviceToken: S.token(0xA1),
                                 headers: PushHeaders(pushType: .liveActivity, bundleIdentifier: "com.example.parcels"),
                                 payload: Data(#"{"aps":{}}"#.utf8), createdAt: S.start, dueAt: S.start)
            let refused = S.error { try s.store.outbox.enqueue(own) }
            #expect(refused.hasPrefix("PushOutboxError"))
            own.deviceToken = S.token(0xB2)
            try s.store.tokens.register(S.token(0xB2), in: .activity(id: "b"))
            try s.store.outbox.enqueue(own)
            try s.store.tokens.invalidate(S.token(0xB2), reason: "gone")
            #expect(try s.store.claimDue(limit: 10, dueBy: S.start, at: S.start, lease: .seconds(30)).isEmpty,
                    "a push to a token the registry invalidated is failed, not claimed")
            let failed = try #require(try s.store.outbox.push(apnsID: own.apnsID))
            #expect(failed.status == .failed)
            return [refused, S.line(failed), try s.line(after), S.line(try #require(try s.store.tokens.lookup(S.token(0xA1))))]
        },
        PushStoreContract(name: "the outbox lists, counts and marks the same way") { s in
            try s.store.tokens.register(S.token(0xA1), in: .activity(id: "a1"))
            try s.store.tokens.register(S.token(0xA2), in: .activity(id: "a2"))
            let first = try #require(try s.submit(parcel("one"), at: 0).apnsID)
            try s.submit(parcel("two"), at: 5, activity: "a2")
            try s.store.outbox.mark(first, .delivered, result: "delivered")
            #expect(try s.store.outbox.counts() == [.delivered: 1, .pending: 1])
            #expect(try s.store.outbox.due(by: S.start.addingTimeInterval(5)).map(\.activityID) == ["a2"])
            #expect(try s.store.outbox.pushes(status: .delivered).map(\.apnsID) == [first])
            #expect(try s.store.outbox.pushes(activityID: "a2").count == 1)
            let unknown = S.error { try s.store.outbox.mark(UUID(), .failed, result: "x") }
            #expect(unknown.hasPrefix("PushOutboxError"))
            return try s.store.outbox.pushes().map(S.line) + [unknown.components(separatedBy: " apns-id ").first ?? ""]
        },
    ]
}

@Suite("Push store contract on SQLite")
struct SQLitePushStoreContractTests {
    @Test(arguments: PushStoreContract.cases)
    func contract(_ contract: PushStoreContract) throws {
        _ = try contract.body(PushStoreSubject(.sqlite))
    }
}

@Suite("Push store contract on PostgreSQL",
       .enabled(if: ThrowawayCluster.isAvailable, Comment(rawValue: ThrowawayCluster.skipReason)))
struct PostgresPushStoreContractTests {
    @Test(arguments: PushStoreContract.cases)
    func contract(_ contract: PushStoreContract) throws {
        _ = try contract.body(PushStoreSubject(.postgres))
    }

    @Test("both stores give the same decisions, queued pushes, registrations and errors", arguments: PushStoreContract.cases)
    func sameTranscript(_ contract: PushStoreContract) throws {
        let onSQLite = try contract.body(PushStoreSubject(.sqlite))
        let onPostgres = try contract.body(PushStoreSubject(.postgres))
        #expect(!onSQLite.isEmpty)
        #expect(onSQLite == onPostgres)
    }
}
