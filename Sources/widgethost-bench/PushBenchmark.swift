import ActivityKit
import Foundation
import JSON
import Push
import SharedState

/// `widgethost-bench push`: (a) state changes per second through the planner into the durable outbox, batched, against
/// building the same payloads with `JSONEncoder` alone and against writing the same rows with bare `sqlite3_*` calls;
/// (b) payloads checked per second by `PushChecker` against `JSONEncoder` building them; (c) a scenario: 1,000
/// activities each changing once a second for 10 simulated minutes under the default policy.
///
/// Durable means WAL with `synchronous = FULL`, one transaction per batch, acknowledged after its commit.
enum PushBenchmark {
    static let batchSize = 500
    static let changesPerRound = 20_000
    static let activityCount = 1000
    static let bundle = "com.example.bench"
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func run(arguments: [String]) throws {
        let options = try DiskBenchmarkOptions(arguments, rounds: 3, seconds: 1.0)
        let work = try options.scratchDirectory("push")
        defer { try? FileManager.default.removeItem(at: work) }
        print("widgethost-bench push: SQLite WAL, synchronous=FULL, files in \(options.directory.path), "
            + "\(options.rounds) rounds of \(changesPerRound) changes in batches of \(batchSize), medians")
        try throughput(work: work, rounds: options.rounds)
        try scenario(work: work)
    }

    // MARK: (a) and (b)

    private static func throughput(work: URL, rounds: Int) throws {
        var planner: [Double] = []
        var encoder: [Double] = []
        var raw: [Double] = []
        var checker: [Double] = []
        var payloads: [Data] = []
        for round in 0..<rounds {
            let store = try openStore(work.appendingPathComponent("planner-\(round).sqlite"))
            var policy = PlannerPolicy()
            policy.minimumInterval = 0  // every change queued: the planner's whole path, decision and outbox row
            try store.planner.setPolicy(policy, for: BenchAttributes.typeName)
            planner.append(try rate(changesPerRound) {
                for batch in stride(from: 0, to: changesPerRound, by: batchSize) {
                    _ = try store.planner.submit((batch..<batch + batchSize).map(change))
                }
            })
            let jsonEncoder = EncodedPayload.encoder()
            encoder.append(try rate(changesPerRound) {
                for index in 0..<changesPerRound { _ = try EncodedPayload.bytes(index, jsonEncoder) }
            })
            let writer = try RawOutboxWriter(path: work.appendingPathComponent("raw-\(round).sqlite").path)
            raw.append(try rate(changesPerRound) {
                for batch in stride(from: 0, to: changesPerRound, by: batchSize) {
                    try writer.write(batch..<batch + batchSize)
                }
            })
            if payloads.isEmpty { payloads = try store.outbox.pushes(limit: 5000).map(\.payload) }
            let headers = ["apns-push-type": "liveactivity", "apns-topic": bundle + ".push-type.liveactivity",
                           "apns-priority": "5"]
            let types = [ActivityAttributesType(BenchAttributes.self)]
            checker.append(try rate(payloads.count * 4) {
                for _ in 0..<4 {
                    for payload in payloads {
                        let findings = PushChecker.check(headers: headers, payload: payload, types: types, now: start)
                        guard !findings.contains(where: { $0.severity == .error }) else {
                            throw BenchmarkUsage(message: "the checker refused a planned push: \(findings)")
                        }
                    }
                }
            })
        }
        print(row("case", "median", "rounds"))
        print(row("(a) changes/s, planner → outbox (durable)", planner))
        print(row("(a) payloads/s, JSONEncoder alone", encoder))
        print(row("(a) changes/s, bare sqlite3_* same rows", raw))
        print(row("(a) planner / bare sqlite3_*", zip(planner, raw).map { $0 / $1 }, percent: true))
        print(row("(b) payloads checked/s, PushChecker", checker))
        print(row("(b) checker / JSONEncoder building", zip(checker, encoder).map { $0 / $1 }, percent: true))
    }

    // MARK: (c)

    private static func scenario(work: URL) throws {
        let store = try openStore(work.appendingPathComponent("scenario.sqlite"))
        var policy = PlannerPolicy()
        policy.significance = [SignificanceRule(pointer: "/progress", threshold: 0.05, relative: true),
                               SignificanceRule(pointer: "/status"), SignificanceRule(pointer: "/stops")]
        policy.alert = [MemberRule(pointer: "/status", values: ["delayed"])]
        try store.planner.setPolicy(policy, for: BenchAttributes.typeName)
        let clock = ContinuousClock()
        let began = clock.now
        var last: [Int: JSONValue] = [:]
        for second in 0..<600 {
            let now = start.addingTimeInterval(Double(second))
            let changes = (0..<activityCount).map { activity in
                let state = BenchAttributes.state(activity: activity, second: second)
                last[activity] = state
                return StateChange(activityID: "la-\(activity)", attributesType: BenchAttributes.typeName, state: state,
                                   at: now, frequentPushes: activity.isMultiple(of: 2))
            }
            _ = try store.planner.submit(changes)
            _ = try store.planner.flush(now: now)
        }
        // Changes stopped: flush until nothing is held, each at its own due time.
        while try store.planner.hasHeldStates(), let next = try store.planner.nextFlushDate() {
            _ = try store.planner.flush(now: next)
        }
        let elapsed = (clock.now - began).seconds
        let counts = try store.planner.decisionCounts()
        var delivered = 0
        var highPriority = 0
        var worstShare = 0.0
        for activity in 0..<activityCount {
            let pushes = try store.outbox.pushes(activityID: "la-\(activity)").sorted { $0.createdAt < $1.createdAt }
            let high = pushes.filter { $0.priority == 10 }
            highPriority += high.count
            let budget = policy.highPriorityBudget(frequentPushes: activity.isMultiple(of: 2))
            // The scenario lasts under an hour, so every sliding hour holds all of an activity's priority-10 pushes.
            guard high.count <= budget else {
                throw BenchmarkUsage(message: "la-\(activity) used \(high.count) priority-10 pushes; budget \(budget)")
            }
            worstShare = max(worstShare, Double(high.count) / Double(max(budget, 1)))
            let final = try pushes.last.flatMap { try JSONParser.parse($0.payload).objectValue?["aps"]?.objectValue?["content-state"] }
            if final?.canonicalText == last[activity]?.canonicalText { delivered += 1 }
        }
        guard delivered == activityCount else {
            throw BenchmarkUsage(message: "only \(delivered) of \(activityCount) activities got their last state")
        }
        let queued = try store.outbox.counts()[.pending] ?? 0
        print("(c) scenario: \(activityCount) activities × 1 change/s × 600 s on a virtual clock, default policy with "
            + "significance (progress 5 %, status, stops), alert on status → delayed, half with frequent pushes")
        print(row("changes submitted", "\(activityCount * 600)", ""))
        print(row("pushes queued (outbox rows)", "\(queued)", String(format: "%.1f per activity", Double(queued) / Double(activityCount))))
        for kind in PlannerDecision.Kind.allCases where (counts[kind] ?? 0) > 0 {
            print(row("decisions: \(kind.rawValue)", "\(counts[kind] ?? 0)", ""))
        }
        print(row("priority 10 used", "\(highPriority)", String(format: "highest share of an activity's budget %.0f%%", 100 * worstShare)))
        print(row("budget exceeded", "never", "asserted per activity"))
        print(row("last state delivered", "\(delivered)/\(activityCount)", "asserted"))
        print(row("wall time", String(format: "%.1f s", elapsed), String(format: "%.0f changes/s incl. flushes", Double(activityCount * 600) / elapsed)))
    }

    // MARK: Support

    static func change(_ index: Int) -> StateChange {
        StateChange(activityID: "la-\(index % activityCount)", attributesType: BenchAttributes.typeName,
                    state: BenchAttributes.state(activity: index % activityCount, second: index / activityCount),
                    at: start.addingTimeInterval(Double(index / activityCount)))
    }

    private static func openStore(_ url: URL) throws -> PushStore {
        let store = try PushStore(database: DatabaseStore(path: url.path), bundleIdentifier: bundle, now: { start })
        for activity in 0..<activityCount {
            try store.tokens.register(token(activity), in: .activity(id: "la-\(activity)"))
        }
        return store
    }

    static func token(_ activity: Int) -> Data {
        var value = UInt64(activity) &+ 1
        return Data((0..<32).map { index in
            value = value &* 6_364_136_223_846_793_005 &+ UInt64(index)
            return UInt8(truncatingIfNeeded: value >> 56)
        })
    }

    private static func rate(_ count: Int, _ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        let began = clock.now
        try body()
        return Double(count) / (clock.now - began).seconds
    }

    private static func row(_ name: String, _ values: [Double], percent: Bool = false) -> String {
        let text = percent ? { String(format: "%.0f%%", 100 * $0) } : format
        return row(name, text(StoreBenchmark.median(values)), values.map(text).joined(separator: " "))
    }

    private static func row(_ name: String, _ value: String, _ detail: String) -> String {
        name.padding(toLength: 44, withPad: " ", startingAt: 0) + value.padding(toLength: 12, withPad: " ", startingAt: 0)
            + detail
    }

    private static func format(_ rate: Double) -> String {
        rate >= 10_000 ? String(format: "%.0fk", rate / 1000) : String(format: "%.0f", rate)
    }
}

/// The scenario's Live Activity: a courier's progress.
struct BenchAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var status: String
        var progress: Double
        var stops: Int
    }

    var orderID: String

    static let typeName = ActivityAttributesType(BenchAttributes.self).name

    /// Activity `activity`'s state at `second`: progress creeping up, a stop less every 2 minutes, and traffic
    /// (`delayed`) for 20 s of every 90, shifted per activity.
    static func state(activity: Int, second: Int) -> JSONValue {
        let status = (second + activity * 7) % 90 < 20 ? "delayed" : "moving"
        return ["status": .string(status), "progress": .double(Double(second + 1) / 600),
                "stops": .int(10 - second / 120)]
    }
}

/// The payload of one planned update as `JSONEncoder` alone writes it: the floor of building it.
enum EncodedPayload {
    struct Payload: Encodable {
        struct APS: Encodable {
            var event = "update"
            var timestamp: Int
            var staleDate: Int
            var contentState: BenchAttributes.ContentState

            enum CodingKeys: String, CodingKey {
                case event, timestamp
                case staleDate = "stale-date"
                case contentState = "content-state"
            }
        }

        var aps: APS
    }

    /// An encoder as the planner's peers use it: one for the run, keys sorted like the planner's payloads.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    static func bytes(_ index: Int, _ encoder: JSONEncoder) throws -> Data {
        let second = index / PushBenchmark.activityCount
        let activity = index % PushBenchmark.activityCount
        let status = (second + activity * 7) % 90 < 20 ? "delayed" : "moving"
        let timestamp = Int(PushBenchmark.start.timeIntervalSince1970) + second
        return try encoder.encode(Payload(aps: Payload.APS(
            timestamp: timestamp, staleDate: timestamp + 600,
            contentState: BenchAttributes.ContentState(status: status, progress: Double(second + 1) / 600,
                                                       stops: 10 - second / 120))))
    }
}
