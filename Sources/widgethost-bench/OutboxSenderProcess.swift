import APNs
import Foundation
import PostgresStore
import Push
import SharedState

/// `widgethost-bench outbox-sender`: one sender process of `widgethost-bench outbox`, which starts one or two of
/// them on the same outbox. Not meant to be run by hand.
///
/// Protocol over its standard input and output, one line each: it opens the outbox (a SQLite file, or a PostgreSQL
/// connection string: an outbox other senders share, whose leases it leaves alone), makes its ``APNsSender`` and
/// prints `ready`; on `go` it starts sending; on `stop` it stops (answers in flight recorded) and prints one JSON
/// object: what it delivered, failed and retried, and the CPU it used between `go` and `stop`. End of input (the
/// parent went away) ends it at once.
enum OutboxSenderProcess {
    struct Options {
        var store = ""
        var endpoint = ""
        var caFile = ""
        var keyFile = ""
        var connections = 1
        var streams = 500

        init(_ arguments: [String]) throws {
            var iterator = arguments.makeIterator()
            while let argument = iterator.next() {
                let value = iterator.next() ?? ""
                switch argument {
                case "--store": store = value
                case "--endpoint": endpoint = value
                case "--ca-file": caFile = value
                case "--key-file": keyFile = value
                case "--connections": connections = try BenchmarkOptionValue.integer(argument, value, in: 1...Int.max)
                case "--streams": streams = try BenchmarkOptionValue.integer(argument, value, in: 1...Int.max)
                default: throw BenchmarkUsage(message: "outbox-sender: unknown option \(argument)")
                }
            }
            guard !store.isEmpty, URL(string: endpoint) != nil, !caFile.isEmpty, !keyFile.isEmpty else {
                throw BenchmarkUsage(message: "outbox-sender needs --store --endpoint --ca-file --key-file")
            }
        }

        /// Whether `store` names a PostgreSQL database rather than a SQLite file.
        var isPostgres: Bool { store.hasPrefix("postgres://") || store.hasPrefix("postgresql://") }
    }

    static func run(arguments: [String]) throws {
        let options = try Options(arguments)
        let queue: any PushDeliveryQueue = options.isPostgres
            ? try PostgresPushOutbox(pool: PostgresPool(connectionString: options.store, maximumConnections: 2))
            : try PushStore(database: DatabaseStore(path: options.store), bundleIdentifier: APNsBenchmark.bundle,
                            now: Date.init)
        let key = try ProviderKey(keyID: APNsBenchmark.keyID, path: options.keyFile)
        let client = HTTP2Client.Configuration(endpoint: URL(string: options.endpoint)!, caFile: options.caFile,
                                               connections: options.connections,
                                               streamsPerConnection: options.streams,
                                               requestTimeout: .seconds(20))
        // Shared outbox: leases are the other senders' too, so none is taken back at start.
        let sender = try APNsSender(store: queue, providerToken: try ProviderToken(key: key, teamID: APNsBenchmark.teamID),
                                    configuration: APNsSender.Configuration(
                                        client: client, window: options.connections * options.streams,
                                        lease: .seconds(30), idlePoll: .milliseconds(5),
                                        releasesLeasesOnStart: !options.isPostgres))
        say("ready")
        guard readLine() == "go" else { exit(2) }
        let cpu = APNsBenchmark.processCPUSeconds()
        try sender.start()
        guard readLine() == "stop" else { exit(2) }
        sender.stop(grace: .seconds(5))
        let used = APNsBenchmark.processCPUSeconds() - cpu
        let counts = sender.metrics.snapshot
        let report: [String: Any] = [
            "delivered": counts.delivered, "failed": counts.failedByReason.values.reduce(0, +),
            "retries": counts.retries, "cpuSeconds": used, "lastError": sender.lastError ?? "",
        ]
        let data = try JSONSerialization.data(withJSONObject: report)
        say(String(decoding: data, as: UTF8.self))
    }

    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// A sender process started by `widgethost-bench outbox`, spoken to over its standard input and output.
final class OutboxSenderChild {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffered: [UInt8] = []

    /// Starts `widgethost-bench outbox-sender` with `arguments` and waits for its `ready`.
    init(arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(
            atPath: "/proc/self/exe"))
        process.arguments = ["outbox-sender"] + arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = try readLine()
        guard line == "ready" else { throw BenchmarkUsage(message: "outbox-sender did not start: \(line)") }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// What the sender reported after `stop`.
    func stop() throws -> [String: Any] {
        send("stop")
        let line = try readLine()
        process.waitUntilExit()
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw BenchmarkUsage(message: "outbox-sender answered: \(line)")
        }
        return object
    }

    /// The next line of the child's output (the child's standard error goes to ours).
    private func readLine() throws -> String {
        let descriptor = output.fileHandleForReading.fileDescriptor
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw BenchmarkUsage(message: "outbox-sender exited: \(String(decoding: buffered, as: UTF8.self))")
            }
            buffered += chunk[..<count]
        }
    }
}
