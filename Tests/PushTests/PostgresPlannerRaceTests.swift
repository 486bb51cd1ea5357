import Dispatch
import Foundation
import JSON
import PostgresStore
import PostgresTestSupport
import Push
import Synchronization
import Testing

/// Two push stores (two daemons' pools) on one PostgreSQL database judging the same activities at once.
@Suite("Planner on a shared PostgreSQL push store",
       .enabled(if: ThrowawayCluster.isAvailable, Comment(rawValue: ThrowawayCluster.skipReason)))
struct PostgresPlannerRaceTests {
    static let type = "ParcelAttributes"
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("concurrent submits to one activity from two stores: one decision each, every push with its decision, timestamps strictly increasing")
    func concurrentSubmitsKeepOneHistory() throws {
        let url = try ThrowawayCluster.shared().makeDatabase()
        let stores = try (0..<2).map { _ in
            try PushStore(pool: PostgresPool(connectionString: url), bundleIdentifier: "com.example.parcels",
                          now: { Self.start })
        }
        var policy = PlannerPolicy()
        policy.minimumInterval = 0
        try stores[0].planner.setPolicy(policy, for: Self.type)
        let activities = ["a", "b"]
        for (index, id) in activities.enumerated() {
            try stores[index].tokens.register(Data(repeating: UInt8(0xA0 + index), count: 32), in: .activity(id: id))
        }
        let perWorker = 12, workers = 4
        let decisions = Mutex<[PlannerDecision]>([])
        let errors = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for step in 0..<perWorker {
                let id = activities[(worker + step) % activities.count]
                let state: JSONValue = ["worker": .int(worker), "step": .int(step)]
                do {
                    let decision = try stores[worker % 2].planner.submit(
                        activityID: id, attributesType: Self.type, state: state,
                        at: Self.start.addingTimeInterval(Double(step)))
                    decisions.withLock { $0.append(decision) }
                } catch {
                    errors.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(errors.withLock { $0 }.isEmpty, "serialization failures are run again, not answered")
        let returned = decisions.withLock { $0 }
        #expect(returned.count == workers * perWorker)
        let recorded = try stores[1].planner.decisions()
        #expect(Set(recorded.map(\.id)) == Set(returned.map(\.id)), "what each submit returned is what was recorded")
        #expect(recorded.allSatisfy { $0.kind == .sent }, "no minimum interval and every state new: all sent")
        let pushes = try stores[0].outbox.pushes(limit: 1000)
        #expect(Set(pushes.map(\.apnsID)) == Set(recorded.compactMap(\.apnsID)), "each push has its decision")
        for id in activities {
            // In queue order, an activity's pushes carry strictly increasing timestamps (the device drops others).
            let stamps = try pushes.filter { $0.activityID == id }.sorted { $0.createdAt < $1.createdAt }.map { push in
                try JSONParser.parse(push.payload).objectValue?["aps"]?.objectValue?["timestamp"]?.numberValue ?? 0
            }
            #expect(stamps.count == workers * perWorker / activities.count)
            #expect(Set(stamps).count == stamps.count, "no two pushes of \(id) share a timestamp")
        }
    }
}
