import Foundation
import JSON
import Push
import SharedState
import Synchronization

/// A planner on a database file, with a clock the test moves, and an update token registered for `a1`.
struct PlannerFixture {
    /// A clock the test moves.
    final class Clock: Sendable {
        private let value = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { value.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { value.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    static let type = "ParcelAttributes"
    static let token = Data(repeating: 0xA1, count: 32)

    let clock = Clock()
    let path: String
    let store: PushStore
    var planner: PushPlanner { store.planner }
    var start: Date { Date(timeIntervalSince1970: 1_800_000_000) }

    init(policy: PlannerPolicy? = nil, tokenFor activities: [String] = ["a1"]) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("planner-\(UUID().uuidString).sqlite").path
        store = try Self.open(path, clock)
        for id in activities { try store.tokens.register(Self.token(id), in: .activity(id: id)) }
        if let policy { try store.planner.setPolicy(policy, for: Self.type) }
    }

    static func open(_ path: String, _ clock: Clock) throws -> PushStore {
        try PushStore(database: DatabaseStore(path: path), bundleIdentifier: "com.example.parcels", now: { clock.now })
    }

    static func token(_ id: String) -> Data {
        id == "a1" ? token : Data(TokenBytes.bytes(id))
    }

    /// The store opened again on the same file, as a restarted daemon opens it.
    func reopened() throws -> PushStore { try Self.open(path, clock) }

    /// Submits `state` for `activity` at the clock's now plus `offset` seconds from the start.
    @discardableResult
    func submit(_ state: JSONValue, at offset: TimeInterval, activity: String = "a1",
                frequentPushes: Bool = false) throws -> PlannerDecision {
        try planner.submit(activityID: activity, attributesType: Self.type, state: state,
                           at: start.addingTimeInterval(offset), frequentPushes: frequentPushes)
    }

    func flush(at offset: TimeInterval) throws -> [PlannerDecision] {
        try planner.flush(now: start.addingTimeInterval(offset))
    }

    /// The `aps` of a queued push.
    func aps(_ decision: PlannerDecision) throws -> [String: JSONValue] {
        guard let id = decision.apnsID, let push = try planner.outbox.push(apnsID: id) else { return [:] }
        return try JSONParser.parse(push.payload).objectValue?["aps"]?.objectValue ?? [:]
    }

    /// Seconds since 1970 of `offset` seconds after the start.
    func seconds(_ offset: TimeInterval) -> JSONValue { .int(Int(start.timeIntervalSince1970 + offset)) }
}

/// Distinct 32-byte tokens from names, without a hash library: the name's bytes cycled.
enum TokenBytes {
    static func bytes(_ name: String) -> [UInt8] {
        let seed = Array(name.utf8)
        return (0..<32).map { index in seed[index % seed.count] &+ UInt8(index) }
    }
}

/// A parcel's content state.
func parcel(_ status: String, progress: Double = 0.5, stops: Int = 3) -> JSONValue {
    ["status": .string(status), "progress": .double(progress), "stops": .int(stops)]
}
