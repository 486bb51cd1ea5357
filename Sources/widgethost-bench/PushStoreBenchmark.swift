import Foundation
import PostgresStore
import Push
import SharedState

/// `widgethost-bench push-postgres --postgres URL`: the push store on PostgreSQL beside SQLite, in the same run on the
/// same changes. (a) State changes per second through the planner into the outbox, one change per transaction as
/// `POST /v1/activities/{id}/states` submits them: one daemon on SQLite, one PostgreSQL writer, two PostgreSQL writers
/// (two stores with pools of their own, on two threads, as two daemons; each its own activities). (b) The senders'
/// store work without the network: claim 100 due pushes under a lease, record their answers in one transaction, until
/// the outbox is drained: one sender on SQLite, one and two on PostgreSQL.
///
/// The database must be empty (`Benchmarks/postgres-bench.sh push` makes a throwaway cluster with `fsync` on). SQLite
/// is a file in `--dir` (WAL, `synchronous = FULL`).
enum PushStoreBenchmark {
    static let activities = 1000

    static func run(arguments: [String]) throws {
        var url = ProcessInfo.processInfo.environment["WIDGETHOST_BENCH_POSTGRES"]
        var directory = FileManager.default.temporaryDirectory
        var changes = 4000
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--postgres": url = iterator.next()
            case "--dir": directory = URL(fileURLWithPath: try BenchmarkOptionValue.path(argument, iterator.next()))
            case "--changes": changes = try BenchmarkOptionValue.integer(argument, iterator.next(), in: activities...Int.max)
            default: throw BenchmarkUsage(message: "unknown option \(argument); options: --postgres URL --dir PATH --changes N")
            }
        }
        guard let url else {
            throw BenchmarkUsage(message: "needs --postgres URL (or $WIDGETHOST_BENCH_POSTGRES): an empty database; "
                                 + "Benchmarks/postgres-bench.sh push makes one")
        }
        let work = directory.appendingPathComponent("widgethost-bench-push-postgres-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let sqlite = try prepare(PushStore(database: DatabaseStore(path: work.appendingPathComponent("push.sqlite").path),
                                           bundleIdentifier: PushBenchmark.bundle, now: { PushBenchmark.start }))
        let pools = try (0..<2).map { _ in try PostgresPool(connectionString: url, maximumConnections: 2) }
        let found = try pools[0].withConnection { db in
            try db.queryOne("SELECT to_regclass('push_outbox') IS NOT NULL AS found")?.bool("found")
        }
        guard found == false else { throw BenchmarkUsage(message: "the database already has a push store: use an empty one") }
        let first = try prepare(PushStore(pool: pools[0], bundleIdentifier: PushBenchmark.bundle, now: { PushBenchmark.start }))
        let second = try PushStore(pool: pools[1], bundleIdentifier: PushBenchmark.bundle, now: { PushBenchmark.start })

        print("widgethost-bench push-postgres: \(changes) state changes over \(activities) activities, one per "
            + "transaction (every change queued); SQLite in \(work.path) (WAL, synchronous=FULL) beside PostgreSQL")
        print("")
        print(pad("case", 66) + pad("count", 10) + pad("time", 12) + "rate")
        // Warm-up, untimed: a first change per activity on each store.
        try submit(0..<activities, [sqlite])
        try submit(0..<activities, [first])
        try drain([sqlite])
        try drain([first])
        var offset = activities
        for (name, stores) in [("SQLite (1 daemon)", [sqlite]), ("PostgreSQL, 1 writer", [first]),
                               ("PostgreSQL, 2 writers (2 pools, as 2 daemons)", [first, second])] {
            let range = offset..<offset + changes
            offset += changes
            row("(a) planner → outbox, \(name)", changes, try BenchTiming.time { try submit(range, stores) }, "changes/s")
        }
        // The outboxes hold the timed changes' pushes: SQLite's one run, PostgreSQL's two; drained in that order.
        let sqliteDrain = try BenchTiming.time { try drain([sqlite]) }
        row("(b) claim + record, SQLite (1 sender)", changes, sqliteDrain, "pushes/s")
        let oneCount = try first.pendingCount()
        let oneSender = try BenchTiming.time { try drain([first], stopAt: oneCount - changes) }
        row("(b) claim + record, PostgreSQL, 1 sender", changes, oneSender, "pushes/s")
        let twoSenders = try BenchTiming.time { try drain([first, second]) }
        row("(b) claim + record, PostgreSQL, 2 senders (as 2 daemons)", changes, twoSenders, "pushes/s")
    }

    /// Registers every activity's token and a policy that queues every change.
    private static func prepare(_ store: PushStore) throws -> PushStore {
        var policy = PlannerPolicy()
        policy.minimumInterval = 0
        try store.planner.setPolicy(policy, for: BenchAttributes.typeName)
        for activity in 0..<activities {
            try store.tokens.register(PushBenchmark.token(activity), in: .activity(id: "la-\(activity)"))
        }
        return store
    }

    /// Submits each change in a transaction of its own; with two stores, each on its own thread takes the changes of
    /// its own activities (every other one).
    private static func submit(_ range: Range<Int>, _ stores: [PushStore]) throws {
        try BenchTiming.concurrently(stores.count) { writer in
            for index in range where index % stores.count == writer {
                _ = try stores[writer].planner.submit([PushBenchmark.change(index)])
            }
        }
    }

    /// Claims 100 at a time and records them delivered until `stopAt` pushes are pending, each store on its own thread.
    private static func drain(_ stores: [PushStore], stopAt: Int = 0) throws {
        let now = Date()
        try BenchTiming.concurrently(stores.count) { sender in
            while true {
                let claimed = try stores[sender].claimDue(limit: 100, dueBy: .distantFuture, at: now, lease: .seconds(60))
                if claimed.isEmpty { return }
                try stores[sender].record(claimed.map {
                    DeliveryAttempt(apnsID: $0.apnsID, outcome: .delivered, status: 200, result: "delivered")
                }, at: now)
                if stores.count == 1, try stores[sender].pendingCount() <= stopAt { return }
            }
        }
    }

    private static func row(_ name: String, _ count: Int, _ time: Duration, _ unit: String) {
        let seconds = time.seconds
        let text = seconds >= 1 ? String(format: "%.2f s", seconds) : String(format: "%.1f ms", seconds * 1000)
        print(pad(name, 66) + pad("\(count)", 10) + pad(text, 12) + String(format: "%.0f %@", Double(count) / seconds, unit))
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
