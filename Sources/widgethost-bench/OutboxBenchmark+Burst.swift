import Foundation
import PostgresStore
import Push
import SharedState

extension OutboxBenchmark {
    /// What every burst shares: the server, the key, the log of what reached the server, the PostgreSQL outbox.
    struct Bench {
        let options: Options
        let server: APNsBenchServer
        let keyFile: String
        let idLog: APNsIDLog
        let shared: PostgresPushOutbox
        let work: URL

        /// Queues `pushes` into an empty outbox of `kind`'s store, drains it with `kind.senders` sender processes,
        /// and checks that each push reached the server once.
        func burst(_ kind: Case, pushes: [OutboxPush]) throws -> Burst {
            let queue: any PushDeliveryQueue
            let store: String
            var sqlite: PushStore?
            if kind.postgres {
                try shared.pool.withConnection { db in
                    _ = try db.execute("TRUNCATE push_outbox, push_unregistered_tokens")
                }
                queue = shared
                store = options.postgres ?? ""
            } else {
                let file = work.appendingPathComponent("outbox-\(UUID().uuidString).sqlite").path
                let opened = try PushStore(database: DatabaseStore(path: file), bundleIdentifier: APNsBenchmark.bundle,
                                           now: Date.init)
                sqlite = opened
                queue = opened
                store = file
            }
            let connections = options.connections / kind.senders
            let children = try (0..<kind.senders).map { _ in
                try OutboxSenderChild(arguments: [
                    "--store", store, "--endpoint", "https://127.0.0.1:\(server.port)", "--ca-file", server.caFile,
                    "--key-file", keyFile, "--connections", "\(connections)", "--streams", "\(options.streams)",
                ])
            }
            let clock = ContinuousClock()
            let enqueueStart = clock.now
            for first in stride(from: 0, to: pushes.count, by: options.batch) {
                try queue.enqueue(contentsOf: Array(pushes[first..<min(first + options.batch, pushes.count)]))
            }
            let enqueueSeconds = (clock.now - enqueueStart).seconds
            let logStart = try idLog.size()
            let drainStart = clock.now
            for child in children { child.send("go") }
            let deadline = drainStart + .seconds(300)
            while try queue.pendingCount() > 0 {
                guard clock.now < deadline else { throw BenchmarkUsage(message: "\(kind.name): the senders stalled") }
                usleep(2000)
            }
            let drainSeconds = (clock.now - drainStart).seconds
            let reports = try children.map { try $0.stop() }
            try check(kind, pushes: pushes, reports: reports, queue: queue, sqlite: sqlite, logStart: logStart)
            let cpu = reports.compactMap { $0["cpuSeconds"] as? Double }.reduce(0, +)
            return Burst(enqueueRate: Double(pushes.count) / enqueueSeconds,
                         drainRate: Double(pushes.count) / drainSeconds,
                         cpuMicroseconds: cpu / Double(pushes.count) * 1e6,
                         perSender: reports.map { $0["delivered"] as? Int ?? 0 })
        }

        /// Throws unless every push of the burst was answered once, recorded delivered once, and counted once.
        private func check(_ kind: Case, pushes: [OutboxPush], reports: [[String: Any]], queue: any PushDeliveryQueue,
                           sqlite: PushStore?, logStart: UInt64) throws {
            let name = "\(kind.name) with \(kind.senders) sender(s)"
            let delivered = reports.compactMap { $0["delivered"] as? Int }.reduce(0, +)
            let failed = reports.compactMap { $0["failed"] as? Int }.reduce(0, +)
            guard delivered == pushes.count, failed == 0 else {
                throw BenchmarkUsage(message: "\(name): the senders delivered \(delivered) and failed \(failed) of "
                                     + "\(pushes.count): \(reports)")
            }
            let rows: [String: Int]
            if let sqlite {
                let counts = try sqlite.outbox.counts()
                rows = Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) })
            } else {
                rows = try shared.pool.withConnection { db in
                    var rows: [String: Int] = [:]
                    for row in try db.query("SELECT status, attempts, count(*) AS n FROM push_outbox GROUP BY 1, 2") {
                        rows["\(row.string("status") ?? "?") after \(row.int("attempts") ?? -1)"] = row.int("n")
                    }
                    return rows
                }
            }
            let expected = sqlite == nil ? ["delivered after 1": pushes.count] : ["delivered": pushes.count]
            guard rows == expected else { throw BenchmarkUsage(message: "\(name): outbox rows \(rows)") }
            // nginx writes its log line once the answer is sent, so the last lines may lag the recorded answers.
            var seen: [String: Int] = [:]
            let deadline = Date().addingTimeInterval(10)
            repeat {
                seen = try idLog.counts(from: logStart)
                if seen.values.reduce(0, +) >= pushes.count { break }
                usleep(20_000)
            } while Date() < deadline
            let missing = pushes.filter { seen[$0.apnsID.uuidString.lowercased()] == nil }.count
            let repeated = seen.values.filter { $0 > 1 }.count
            guard missing == 0, repeated == 0, seen.count == pushes.count else {
                throw BenchmarkUsage(message: "\(name): nginx answered \(seen.count) apns-ids of \(pushes.count); "
                                     + "\(missing) missing, \(repeated) more than once")
            }
        }
    }
}

/// nginx's log of the `apns-id`s it answered, one per line, appended to across bursts.
struct APNsIDLog {
    let path: String

    /// The log's size now: where the next burst's lines begin.
    func size() throws -> UInt64 {
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        return (try FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64) ?? 0
    }

    /// How many times each `apns-id` was logged after `offset`.
    func counts(from offset: UInt64) throws -> [String: Int] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [:] }
        defer { try? handle.close() }
        try handle.seek(toOffset: offset)
        let data = try handle.readToEnd() ?? Data()
        var counts: [String: Int] = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) {
            counts[String(decoding: line, as: UTF8.self), default: 0] += 1
        }
        return counts
    }
}
