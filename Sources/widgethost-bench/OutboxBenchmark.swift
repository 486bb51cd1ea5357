import APNs
import Foundation
import PostgresStore
import Push
import SharedState

/// `widgethost-bench outbox --postgres URL`: push outbox throughput, from the outbox to an APNs-like server (nginx,
/// TLS 1.3, HTTP/2) on loopback, by one sender process on SQLite, one on PostgreSQL and two sharing one PostgreSQL
/// outbox, in the same run, on the same pushes, the same nginx and the same connections in all (split between the
/// two senders); and the rate at which each store queues pushes in batches.
///
/// Each burst: the sender processes (`widgethost-bench outbox-sender`) open the outbox and wait; the pushes are
/// queued in batches (timed: the enqueue rate, nothing else running); then the senders start and the burst is timed
/// until no push is pending (every answer recorded; connecting is included). Then the benchmark checks that every
/// push was delivered exactly once: the `apns-id`s nginx logged, the outbox's rows and the senders' own counts. A
/// burst that lost or repeated a push stops the benchmark instead of giving a figure. The cases take turns, in
/// rotating order, round by round; after one untimed round to warm up, medians of the rounds are printed.
enum OutboxBenchmark {
    struct Options {
        var postgres = ProcessInfo.processInfo.environment["WIDGETHOST_BENCH_POSTGRES"]
        var pushes = 20_000
        var rounds = 3
        var batch = 500
        var connections = 2
        var streams = 500
        var directory = FileManager.default.temporaryDirectory

        init(_ arguments: [String]) throws {
            var iterator = arguments.makeIterator()
            while let argument = iterator.next() {
                switch argument {
                case "--postgres": postgres = iterator.next()
                case "--pushes": pushes = try BenchmarkOptionValue.integer(argument, iterator.next(), in: 1000...Int.max)
                case "--rounds": rounds = try BenchmarkOptionValue.integer(argument, iterator.next(), in: 1...Int.max)
                case "--batch": batch = try BenchmarkOptionValue.integer(argument, iterator.next(), in: 1...Int.max)
                case "--connections": connections = try BenchmarkOptionValue.evenInteger(argument, iterator.next(), in: 2...Int.max)
                case "--streams": streams = try BenchmarkOptionValue.integer(argument, iterator.next(), in: 10...1000)
                case "--dir": directory = URL(fileURLWithPath: try BenchmarkOptionValue.path(argument, iterator.next()))
                default:
                    throw BenchmarkUsage(message: "unknown option \(argument); options: --postgres URL --pushes N "
                                         + "--rounds N --batch N --connections N (even) --streams N --dir PATH")
                }
            }
            guard postgres != nil else {
                throw BenchmarkUsage(message: "needs --postgres URL (or $WIDGETHOST_BENCH_POSTGRES): an empty "
                                     + "database; Benchmarks/postgres-bench.sh makes one")
            }
        }
    }

    /// One store and its number of sender processes.
    struct Case {
        var name: String
        var postgres: Bool
        var senders: Int
    }

    /// What one burst measured.
    struct Burst {
        var enqueueRate: Double
        var drainRate: Double
        var cpuMicroseconds: Double
        var perSender: [Int]
    }

    static let cases = [Case(name: "SQLite", postgres: false, senders: 1),
                        Case(name: "PostgreSQL", postgres: true, senders: 1),
                        Case(name: "PostgreSQL", postgres: true, senders: 2)]

    static func run(arguments: [String]) throws {
        let options = try Options(arguments)
        let work = options.directory.appendingPathComponent("widgethost-bench-outbox-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let keyFile = work.appendingPathComponent("AuthKey_\(APNsBenchmark.keyID).p8").path
        try APNsBenchServer.run("/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt",
                                                     "ec_paramgen_curve:P-256", "-out", keyFile])
        let idLog = APNsIDLog(path: work.appendingPathComponent("apns-ids.log").path)
        let server = try APNsBenchServer.nginx(in: work, workers: 2, maxStreams: options.streams,
                                              apnsIDLog: idLog.path)
        defer { server.stop() }
        let pool = try PostgresPool(connectionString: options.postgres ?? "", maximumConnections: 2)
        let existing = try pool.withConnection { db in
            try db.queryOne("SELECT to_regclass('push_outbox') IS NOT NULL AS found")?.bool("found")
        }
        guard existing == false else {
            throw BenchmarkUsage(message: "the database already has a push_outbox table: use an empty one")
        }
        let shared = try PostgresPushOutbox(pool: pool)
        let bench = Bench(options: options, server: server, keyFile: keyFile, idLog: idLog, shared: shared, work: work)

        print("widgethost-bench outbox: \(options.pushes) Live Activity pushes per burst, queued in batches of "
              + "\(options.batch), then drained to nginx (TLS 1.3, HTTP/2, 2 workers) over \(options.connections) "
              + "connections of \(options.streams) streams in all (split between the senders); SQLite WAL "
              + "synchronous=FULL beside PostgreSQL (\(try serverSettings(pool))); medians of \(options.rounds) "
              + "rounds after one to warm up; load \(loadAverage())")
        for kind in cases { _ = try bench.burst(kind, pushes: Self.pushes(max(1000, options.pushes / 10))) }
        var results = [[Burst]](repeating: [], count: cases.count)
        for round in 0..<options.rounds {
            let pushes = Self.pushes(options.pushes)
            for turn in 0..<cases.count {
                let index = (round + turn) % cases.count
                results[index].append(try bench.burst(cases[index], pushes: pushes))
            }
        }
        print(row(["store", "senders", "conns", "in flight", "queued/s", "sent/s", "CPU µs/push", "each sender sent"]))
        var rates: [Double] = []
        for (kind, bursts) in zip(cases, results) {
            let drain = median(bursts.map(\.drainRate))
            rates.append(drain)
            let split = bursts.map { $0.perSender.map(String.init).joined(separator: "+") }.joined(separator: ", ")
            print(row([kind.name, "\(kind.senders)", "\(options.connections)",
                       "\(options.connections * options.streams)", format(median(bursts.map(\.enqueueRate)), 0),
                       format(drain, 0), format(median(bursts.map(\.cpuMicroseconds)), 1), split]))
        }
        print("sent/s by round: " + zip(cases, results).map { kind, bursts in
            "\(kind.name) ×\(kind.senders) " + bursts.map { format($0.drainRate, 0) }.joined(separator: " ")
        }.joined(separator: "; "))
        print("PostgreSQL 1 sender / SQLite \(format(rates[1] / rates[0], 2)); PostgreSQL 2 senders / 1 sender "
              + "\(format(rates[2] / rates[1], 2)); every push delivered exactly once in every burst (nginx's "
              + "apns-id log, the outbox rows, the senders' counts); load \(loadAverage())")
    }

    /// `count` Live Activity pushes to 1,000 device tokens of 100 activities, due now.
    static func pushes(_ count: Int) -> [OutboxPush] {
        (0..<count).map { n in
            var token = [UInt8](repeating: 0xAB, count: 32)
            token[30] = UInt8(truncatingIfNeeded: (n % 1000) >> 8)
            token[31] = UInt8(truncatingIfNeeded: n % 1000)
            return OutboxPush(activityID: "activity-\(n % 100)", deviceToken: Data(token),
                              headers: PushHeaders(pushType: .liveActivity, bundleIdentifier: APNsBenchmark.bundle,
                                                   priority: .low),
                              payload: Data(#"{"aps":{"timestamp":\#(1_700_000_000 + n),"event":"update","content-state":{"n":\#(n)}}}"#.utf8),
                              createdAt: Date(), dueAt: Date())
        }
    }

    private static func serverSettings(_ pool: PostgresPool) throws -> String {
        try pool.withConnection { db in
            try db.queryOne("SELECT current_setting('server_version') AS v, current_setting('fsync') AS f, "
                            + "current_setting('synchronous_commit') AS s").map {
                "server \($0.string("v") ?? "?"), fsync=\($0.string("f") ?? "?"), "
                    + "synchronous_commit=\($0.string("s") ?? "?")"
            } ?? "?"
        }
    }

    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    static func row(_ cells: [String]) -> String {
        let widths = [12, 9, 7, 11, 10, 10, 13]
        return zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined()
            + cells.dropFirst(widths.count).joined(separator: " ")
    }

    static func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}
