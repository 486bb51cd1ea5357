import APNs
import Foundation
import Push
import SharedState
import Synchronization

/// `widgethost-bench apns`: pushes per second from the durable outbox to an APNs-like server on loopback over one and
/// over four HTTP/2 connections, with p50/p99 latency and the sender's CPU per push, against the peer `aioapns`
/// (PyPI, pinned, in `.build/aioapns-venv`) sending the same pushes to the same server in the same run.
///
/// The yardstick is nginx (TLS 1.3, HTTP/2, answering 200 with the `apns-id`): the local APNs stand-in checks
/// everything APNs checks but is one Python process that saturates near 2,000 requests/s, which would measure the
/// stand-in rather than the clients (`--stand-in` adds its rows to show that). Ours is timed from the moment the
/// pushes are committed to the outbox until every answer is recorded there (claims, leases and recorded results
/// included); the peer from its first request to its last answer, with nothing stored. CPU is the benchmark process's
/// own (user + system, all threads): the server runs in other processes.
enum APNsBenchmark {
    static let keyID = "BENCH12345"
    static let teamID = "TEAMBENCH1"
    static let bundle = "com.example.bench"

    struct Options {
        var pushes = 20_000
        var rounds = 3
        var warmup = 500
        var standIn = false
        var streams = 500
        var directory = FileManager.default.temporaryDirectory

        init(_ arguments: [String]) throws {
            var iterator = arguments.makeIterator()
            while let argument = iterator.next() {
                switch argument {
                case "--pushes": pushes = try BenchmarkOptionValue.integer(argument, iterator.next(), in: 1000...Int.max)
                case "--rounds": rounds = try BenchmarkOptionValue.integer(argument, iterator.next(), in: 1...Int.max)
                case "--streams": streams = try BenchmarkOptionValue.integer(argument, iterator.next(), in: 10...1000)
                case "--stand-in": standIn = true
                case "--dir": directory = URL(fileURLWithPath: try BenchmarkOptionValue.path(argument, iterator.next()))
                default:
                    throw BenchmarkUsage(message: "unknown option \(argument); options: --pushes N --rounds N "
                                         + "--streams N --stand-in --dir PATH")
                }
            }
        }
    }

    /// One measured burst.
    struct Run {
        var rate: Double
        var p50: Double
        var p99: Double
        var cpuMicroseconds: Double
        /// The connections the client had open at the end (the peer reports them; ours is the configured count).
        var connections: Int
    }

    static func run(arguments: [String]) throws {
        let options = try Options(arguments)
        let work = options.directory.appendingPathComponent("widgethost-bench-apns-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let keyFile = work.appendingPathComponent("AuthKey_\(keyID).p8").path
        try APNsBenchServer.run("/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt",
                                                     "ec_paramgen_curve:P-256", "-out", keyFile])
        print("widgethost-bench apns: \(options.pushes) Live Activity pushes per burst after \(options.warmup) to warm "
            + "up, \(options.streams) streams per connection, medians of \(options.rounds) rounds; outbox in SQLite "
            + "WAL, synchronous=FULL")
        print(row(["client", "server", "conns", "in flight", "pushes/s", "p50 ms", "p99 ms", "CPU µs/push"]))
        defer { print("conns a→b: b connections were open at the end (aioapns opens one more only when all are busy)") }
        var servers: [APNsBenchServer] = [
            try .nginx(in: work, workers: 2, maxStreams: options.streams),
        ]
        if options.standIn {
            servers.append(try .standIn(in: work, keyFile: keyFile, keyID: keyID, teamID: teamID, bundle: bundle,
                                        maxStreams: options.streams))
        }
        var ratios: [String] = []
        for server in servers {
            defer { server.stop() }
            for connections in server.kind == .nginx ? [1, 4] : [1] {
                let window = connections * options.streams
                var ours: [Run] = []
                var peer: [Run] = []
                for round in 0..<options.rounds {
                    ours.append(try sendFromOutbox(server, connections: connections, window: window, options: options,
                                                   keyFile: keyFile, file: work.appendingPathComponent(
                                                       "outbox-\(server.kind.rawValue)-\(connections)-\(round).sqlite")))
                    peer.append(try aioapns(server, connections: connections, window: window, options: options,
                                            keyFile: keyFile))
                }
                let name = server.kind == .nginx ? "nginx" : "stand-in"
                let mine = median(ours)
                let theirs = median(peer)
                print(row(["widgethost", name, "\(connections)", "\(window)", format(mine.rate, 0), format(mine.p50, 1),
                           format(mine.p99, 1), format(mine.cpuMicroseconds, 1)]))
                let used = theirs.connections == connections ? "\(connections)" : "\(connections)→\(theirs.connections)"
                print(row(["aioapns 4.0", name, used, "\(window)", format(theirs.rate, 0),
                           format(theirs.p50, 1), format(theirs.p99, 1), format(theirs.cpuMicroseconds, 1)]))
                ratios.append("\(name), \(connections) conn: widgethost/aioapns \(format(mine.rate / theirs.rate, 2))× "
                              + "pushes/s, \(format(theirs.cpuMicroseconds / mine.cpuMicroseconds, 1))× less CPU per push")
            }
        }
        for ratio in ratios { print(ratio) }
    }

    /// Our sender: `options.pushes` pushes committed to a fresh outbox, then drained to `server`.
    static func sendFromOutbox(_ server: APNsBenchServer, connections: Int, window: Int, options: Options,
                               keyFile: String, file: URL) throws -> Run {
        let store = try PushStore(database: DatabaseStore(path: file.path), bundleIdentifier: bundle, now: Date.init)
        let latencies = LatencySink()
        let key = try ProviderKey(keyID: keyID, path: keyFile)
        let client = HTTP2Client.Configuration(endpoint: URL(string: "https://127.0.0.1:\(server.port)")!,
                                               caFile: server.caFile, connections: connections,
                                               streamsPerConnection: server.maxStreams)
        let sender = try APNsSender(store: store, providerToken: try ProviderToken(key: key, teamID: teamID),
                                    configuration: APNsSender.Configuration(client: client, window: window,
                                                                            idlePoll: .milliseconds(5)),
                                    metrics: APNsMetrics(sink: latencies))
        defer { sender.stop() }
        try enqueue(store, count: options.warmup, from: 0)
        try sender.start()
        do {
            try wait(for: options.warmup, sender, store)
        } catch {
            let results = Set(try store.outbox.pushes(limit: 100_000).compactMap(\.lastResult))
            throw BenchmarkUsage(message: "\(error); results: \(results.prefix(5))")
        }
        try enqueue(store, count: options.pushes, from: options.warmup)
        latencies.reset()
        let cpu = processCPUSeconds()
        let start = ContinuousClock.now
        sender.wake()
        try wait(for: options.warmup + options.pushes, sender, store)
        let seconds = (ContinuousClock.now - start).seconds
        let used = processCPUSeconds() - cpu
        guard try store.pendingCount() == 0, (try store.outbox.counts())[.failed] == nil else {
            throw BenchmarkUsage(message: "pushes failed: \(try store.outbox.counts()); \(sender.lastError ?? "")")
        }
        let sorted = latencies.sorted
        let retries = sender.metrics.snapshot.retries
        if retries > 0 { print("  (widgethost retried \(retries) attempts in this burst: the figures include them)") }
        return Run(rate: Double(options.pushes) / seconds, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99),
                   cpuMicroseconds: used / Double(options.pushes) * 1e6, connections: connections)
    }

    /// The peer: `Benchmarks/apns/aioapns-peer` with the same pushes, connections and requests in flight.
    static func aioapns(_ server: APNsBenchServer, connections: Int, window: Int, options: Options,
                        keyFile: String) throws -> Run {
        let process = Process()
        process.executableURL = APNsBenchServer.sourceRoot.appendingPathComponent("Benchmarks/apns/aioapns-peer")
        process.arguments = ["--port", String(server.port), "--ca-file", server.caFile, "--key-file", keyFile,
                             "--key-id", keyID, "--team-id", teamID, "--topic", bundle, "--pushes",
                             String(options.pushes), "--connections", String(connections), "--concurrency",
                             String(window), "--warmup", String(options.warmup)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let rate = object["rate"] as? Double, let p50 = object["p50Ms"] as? Double,
              let p99 = object["p99Ms"] as? Double, let cpu = object["cpuSeconds"] as? Double,
              let used = object["connections"] as? Int,
              object["ok"] as? Int == options.pushes else {
            throw BenchmarkUsage(message: "aioapns-peer failed: \(String(decoding: data, as: UTF8.self))")
        }
        return Run(rate: rate, p50: p50, p99: p99, cpuMicroseconds: cpu / Double(options.pushes) * 1e6,
                   connections: used)
    }

    static func enqueue(_ store: PushStore, count: Int, from first: Int) throws {
        let token = Data(repeating: 0xAB, count: 32)
        for batch in stride(from: first, to: first + count, by: 5000) {
            let pushes = (batch..<min(batch + 5000, first + count)).map { n in
                OutboxPush(activityID: "activity-\(n % 100)", deviceToken: token,
                           headers: PushHeaders(pushType: .liveActivity, bundleIdentifier: bundle, priority: .low),
                           payload: Data(#"{"aps":{"timestamp":\#(1_700_000_000 + n),"event":"update","content-state":{"n":\#(n)}}}"#.utf8),
                           createdAt: Date(), dueAt: Date())
            }
            try store.outbox.enqueue(contentsOf: pushes)
        }
    }

    /// Waits until `delivered` answers came and were recorded: the counter first (cheap to poll), then the outbox.
    static func wait(for delivered: Int, _ sender: APNsSender, _ store: PushStore) throws {
        let deadline = ContinuousClock.now + .seconds(300)
        while sender.metrics.snapshot.delivered < delivered {
            guard ContinuousClock.now < deadline else {
                throw BenchmarkUsage(message: "the sender stalled: \(sender.metrics.snapshot); \(sender.lastError ?? "")")
            }
            usleep(1000)
        }
        while try store.pendingCount() > 0 {
            guard ContinuousClock.now < deadline else { throw BenchmarkUsage(message: "answers were not recorded") }
            usleep(200)
        }
    }

    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    static func median(_ runs: [Run]) -> Run {
        func middle(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return Run(rate: middle(runs.map(\.rate)), p50: middle(runs.map(\.p50)), p99: middle(runs.map(\.p99)),
                   cpuMicroseconds: middle(runs.map(\.cpuMicroseconds)),
                   connections: runs.map(\.connections).min() ?? 0)
    }

    static func row(_ cells: [String]) -> String {
        let widths = [12, 9, 6, 10, 10, 8, 8, 12]
        return zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined()
    }

    static func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}

/// Latencies of delivered pushes, in milliseconds, as the sender reports them.
final class LatencySink: APNsMetricsSink {
    private let latencies = Mutex<[Double]>([])

    func reset() { latencies.withLock { $0.removeAll(keepingCapacity: true) } }
    var sorted: [Double] { latencies.withLock { $0 }.sorted() }

    func delivered(latency: Duration) {
        let (seconds, attoseconds) = latency.components
        latencies.withLock { $0.append((Double(seconds) + Double(attoseconds) / 1e18) * 1000) }
    }

    func requestsSent(_ count: Int) {}
    func failed(reason: String, latency: Duration?) {}
    func retried(latency: Duration?) {}
    func providerTokenRenewed() {}
    func queueDepth(_ count: Int) {}
}

