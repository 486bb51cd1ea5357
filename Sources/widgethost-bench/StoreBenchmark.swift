import CSQLite
import Foundation
import SharedState

/// `widgethost-bench store`: durable single-key writes through `DefaultsSuite.set` against raw
/// `sqlite3_*` calls doing the same statement, and reads from the reader pool.
///
/// Both writers use WAL with `synchronous = FULL` on files in the same directory (the system
/// temporary directory unless `--dir` says otherwise), each write its own `BEGIN IMMEDIATE`
/// transaction, so both pay one WAL fsync per commit: the disk sets the limit and the ratio
/// shows what the wrapper costs on top. Within each round the two alternate in small batches so
/// they meet the same disk conditions; the table prints the median of the rounds.
enum StoreBenchmark {
    static let upsertSQL = """
        INSERT INTO shared_state_defaults(suite, key, type, value) VALUES (?, ?, ?, ?)
        ON CONFLICT(suite, key) DO UPDATE SET type = excluded.type, value = excluded.value
        """

    /// Writes per side between switches.
    static let batchSize = 20

    static func run(arguments: [String]) throws {
        let options = try DiskBenchmarkOptions(arguments, rounds: 5, seconds: 1.0)
        let (directory, rounds, seconds) = (options.directory, options.rounds, options.seconds)
        let work = try options.scratchDirectory("store")
        defer { try? FileManager.default.removeItem(at: work) }

        let container = try AppGroupContainer(identifier: "group.bench.suite", dataDirectory: work, synchronous: .full)
        let suite = container.suite()
        suite.set(0, forKey: "counter")
        let raw = try RawWriter(path: work.appendingPathComponent("raw.sqlite").path)

        var suiteRates: [Double] = []
        var rawRates: [Double] = []
        var next = 1
        for round in 0..<rounds {
            // Small alternating batches, so both sides meet the same disk weather (fsync latency
            // on a shared machine swings by 10x within seconds); each round's rate is its
            // writes over the time spent on that side.
            var suiteTime = Duration.zero
            var rawTime = Duration.zero
            var batches = 0
            let clock = ContinuousClock()
            let roundStart = clock.now
            while clock.now - roundStart < .milliseconds(Int64(2 * seconds * 1000)) {
                let suiteFirst = (round + batches).isMultiple(of: 2)
                for useSuite in suiteFirst ? [true, false] : [false, true] {
                    let start = clock.now
                    for _ in 0..<batchSize {
                        if useSuite {
                            suite.set(next, forKey: "counter")
                        } else {
                            try raw.write(next)
                        }
                        next += 1
                    }
                    if useSuite { suiteTime += clock.now - start } else { rawTime += clock.now - start }
                }
                batches += 1
            }
            suiteRates.append(Double(batches * batchSize) / suiteTime.seconds)
            rawRates.append(Double(batches * batchSize) / rawTime.seconds)
        }
        let written = suite.integer(forKey: "counter")
        guard written > 0 else { throw BenchmarkUsage(message: "suite writes did not land") }

        var readRates: [Double] = []
        for _ in 0..<rounds {
            readRates.append(measureParallelReads(suite: suite, threads: 2, seconds: seconds))
        }

        let suiteMedian = median(suiteRates)
        let rawMedian = median(rawRates)
        let ratios = zip(suiteRates, rawRates).map { $0 / $1 }
        print("widgethost-bench store: SQLite \(String(cString: sqlite3_libversion())), WAL, synchronous=FULL, "
            + "files in \(directory.path), \(rounds) rounds of \(2 * seconds) s alternating batches of \(batchSize), medians")
        print(row("case", "median", "rounds"))
        print(row("durable writes/s, DefaultsSuite.set", format(suiteMedian), suiteRates.map(format).joined(separator: " ")))
        print(row("durable writes/s, raw sqlite3_*", format(rawMedian), rawRates.map(format).joined(separator: " ")))
        print(row("suite / raw per round (goal >= 80%)", String(format: "%.0f%%", 100 * median(ratios)),
                  ratios.map { String(format: "%.0f%%", 100 * $0) }.joined(separator: " ")))
        print(row("reads/s, reader pool, 2 threads", format(median(readRates)), readRates.map(format).joined(separator: " ")))
    }

    private static func row(_ name: String, _ value: String, _ detail: String) -> String {
        name.padding(toLength: 40, withPad: " ", startingAt: 0) + value.padding(toLength: 10, withPad: " ", startingAt: 0) + detail
    }

    private static func format(_ rate: Double) -> String {
        rate >= 10_000 ? String(format: "%.0fk", rate / 1000) : String(format: "%.0f", rate)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// Operations per second of `body` run back to back for about `seconds`.
    private static func measure(seconds: Double, _ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let limit = Duration.milliseconds(Int64(seconds * 1000))
        var count = 0
        while clock.now - start < limit {
            body()
            count += 1
        }
        return Double(count) / (clock.now - start).seconds
    }

    private static func measureParallelReads(suite: DefaultsSuite, threads: Int, seconds: Double) -> Double {
        let counts = ReadCounts(threads: threads)
        let group = DispatchGroup()
        for index in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                let rate = measure(seconds: seconds) { _ = suite.integer(forKey: "counter") }
                counts.set(index, rate)
                group.leave()
            }
        }
        group.wait()
        return counts.total
    }
}

/// Per-thread read rates.
///
/// `@unchecked Sendable` is safe because `rates` is only touched while holding `lock`.
private final class ReadCounts: @unchecked Sendable {
    private let lock = NSLock()
    private var rates: [Double]

    init(threads: Int) { rates = Array(repeating: 0, count: threads) }

    func set(_ index: Int, _ rate: Double) { lock.withLock { rates[index] = rate } }

    var total: Double { lock.withLock { rates.reduce(0, +) } }
}

struct BenchmarkUsage: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// The baseline: the same upsert through bare `sqlite3_*` calls, each in its own transaction,
/// with statements prepared once. No wrapper, no error objects beyond a code check.
private final class RawWriter {
    private let calls = RawSQLiteCalls(floor: "raw")

    private var db: OpaquePointer?
    private var begin: OpaquePointer?
    private var upsert: OpaquePointer?
    private var commit: OpaquePointer?

    init(path: String) throws {
        try calls.check(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil), "open")
        try exec("PRAGMA journal_mode = WAL")
        try exec("PRAGMA synchronous = FULL")
        try exec("""
            CREATE TABLE IF NOT EXISTS shared_state_defaults (
                suite TEXT NOT NULL, key TEXT NOT NULL, type TEXT NOT NULL, value, PRIMARY KEY (suite, key))
            """)
        try calls.check(sqlite3_prepare_v2(db, "BEGIN IMMEDIATE", -1, &begin, nil), "prepare begin")
        try calls.check(sqlite3_prepare_v2(db, StoreBenchmark.upsertSQL, -1, &upsert, nil), "prepare upsert")
        try calls.check(sqlite3_prepare_v2(db, "COMMIT", -1, &commit, nil), "prepare commit")
        try write(0)
    }

    deinit {
        sqlite3_finalize(begin)
        sqlite3_finalize(upsert)
        sqlite3_finalize(commit)
        sqlite3_close_v2(db)
    }

    func write(_ value: Int) throws {
        try step(begin, "begin")
        sqlite3_bind_text(upsert, 1, "group.bench.raw", -1, csqlite_static())
        sqlite3_bind_text(upsert, 2, "counter", -1, csqlite_static())
        sqlite3_bind_text(upsert, 3, "integer", -1, csqlite_static())
        sqlite3_bind_int64(upsert, 4, Int64(value))
        try step(upsert, "upsert")
        try step(commit, "commit")
    }

    private func step(_ statement: OpaquePointer?, _ what: String) throws {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw BenchmarkUsage(message: "raw \(what): SQLite error \(code)") }
    }

    private func exec(_ sql: String) throws {
        try calls.check(sqlite3_exec(db, sql, nil, nil, nil), sql)
    }
}

extension Duration {
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
