import CSQLite
import DemoWidgets
import Foundation
import SharedState
import WidgetHost

/// `widgethost-bench intents`: durable interactive-intent performs per second, group commit against one durable
/// transaction per perform, with 1 and with 16 concurrent clients.
///
/// Every perform is the demo's task toggle (`SetTaskCompletedIntent`, the CompleteTask code path) on the client's
/// own task, alternating done / not done so that every perform really writes a row (and, when completing, the
/// `lastCompletedTaskID` default), with an idempotency key, through an ``IntentRunner`` on a container with
/// `synchronous = FULL`: a perform returns only after its commit, so every acknowledgement is durable. The baseline
/// is the same runner with `maximumBatchSize: 1`, i.e. one `BEGIN IMMEDIATE … COMMIT` (one WAL fsync) per perform.
/// Cases alternate within each round, so they meet the same disk conditions; the table prints medians.
///
/// "CPU µs/perform" is the process's CPU time (user + system, all threads, from `getrusage`) during a
/// measurement divided by its performs: the cost that limits how many performs one commit can carry. It includes
/// the kernel's share of the writes and fsyncs, and whatever else the process did meanwhile (little). Beside it, the
/// floor: the statements a perform makes, through bare `sqlite3_*` calls in batches as large as group commit's
/// (`RawPerformWriter`), measured the same way. The group-commit case with 16 clients and the floor take turns in
/// six slices per round, so both meet the same host (whose speed moves by half within seconds here); the ratio is
/// the median of the rounds' ratios (the ratio of the two medians is printed beside it). Each client's performs, and
/// the floor's, go on from where the last slice left them, so every perform changes its task's row.
enum IntentBenchmark {
    static func run(arguments: [String]) async throws {
        // For profiling: the group-commit case with 16 clients and its floor, without the other cases.
        let groupCommitOnly = arguments.contains("--group-commit-only")
        let options = try DiskBenchmarkOptions(arguments.filter { $0 != "--group-commit-only" }, rounds: 3,
                                               seconds: 1.5)
        let (directory, rounds, seconds) = (options.directory, options.rounds, options.seconds)
        let work = try options.scratchDirectory("intents")
        defer { try? FileManager.default.removeItem(at: work) }

        let container = try AppGroupContainer(identifier: DemoSchema.appGroup, dataDirectory: work, synchronous: .full)
        try FixtureLoader.load(Fixtures(directory: Fixtures.bundledDirectory), into: container)
        let engine = WidgetEngine(catalog: DemoCatalog.make(), store: try EngineStore.inMemory(), containers: [container])
        func runner(batchSize: Int) throws -> IntentRunner {
            try IntentRunner(engine: engine, intents: DemoCatalog.makeIntents(), container: container,
                             maximumBatchSize: batchSize)
        }
        let cases: [(name: String, runner: IntentRunner, clients: Int)] = [
            ("one transaction per perform, 1 client", try runner(batchSize: 1), 1),
            ("group commit, 1 client", try runner(batchSize: IntentRunner.defaultMaximumBatchSize), 1),
            ("one transaction per perform, 16 clients", try runner(batchSize: 1), 16),
            ("group commit, 16 clients", try runner(batchSize: IntentRunner.defaultMaximumBatchSize), 16),
        ]
        // The floor: the same statements with bare sqlite3_* calls on a container of its own (same tables, same
        // fixtures), in batches as large as group commit's at 16 clients, measured in turns with that case.
        let rawDirectory = work.appendingPathComponent("raw", isDirectory: true)
        let rawContainer = try AppGroupContainer(identifier: DemoSchema.appGroup, dataDirectory: rawDirectory,
                                                 synchronous: .full)
        try FixtureLoader.load(Fixtures(directory: Fixtures.bundledDirectory), into: rawContainer)
        _ = try IntentRunner(engine: engine, intents: DemoCatalog.makeIntents(), container: rawContainer)
        let raw = try RawPerformWriter(path: rawDirectory.appendingPathComponent(DemoSchema.appGroup + ".sqlite").path)
        // The runner's ledgers through bare calls too, only to keep both sides' as large as each other: the runner's
        // hold every case's keys, and a perform's cost grows with them (deeper indexes, fewer pages cached).
        let runnerLedgers = try RawPerformWriter(path: work.appendingPathComponent(DemoSchema.appGroup + ".sqlite").path)
        /// Tops up the smaller side's idempotency and owed-reload ledgers to the other's size, before each slice of
        /// the group-commit case and of the floor (not measured).
        func equalizeLedgers() throws {
            let (runnerSizes, floorSizes) = (try runnerLedgers.ledgerSizes(), try raw.ledgerSizes())
            runnerLedgers.textLengths = raw.textLengths
            try runnerLedgers.fill(keys: floorSizes.keys - runnerSizes.keys, owed: floorSizes.owed - runnerSizes.owed)
            try raw.fill(keys: runnerSizes.keys - floorSizes.keys, owed: runnerSizes.owed - floorSizes.owed)
        }
        var rawCPU: [Double] = []
        var measurement = 0
        var rates = Array(repeating: [Double](), count: cases.count)
        var cpuPerPerform = Array(repeating: [Double](), count: cases.count)
        /// The floor's batch size (group commit's so far) and texts (as long as those the runner stored).
        func prepareFloor() throws -> Int {
            raw.textLengths = try container.store.read { db in
                let lengths = try db.queryOne("""
                    SELECT CAST(avg(length(request)) AS INTEGER) AS request,
                           CAST(avg(length(outcome)) AS INTEGER) AS outcome FROM widgethost_intent_keys
                    """)
                return (lengths?.int("request") ?? 100, lengths?.int("outcome") ?? 850)
            }
            let groupStatistics = cases[3].runner.statistics
            return max(1, Int((Double(groupStatistics.performs) / Double(max(groupStatistics.transactions, 1)))
                .rounded()))
        }
        // Each client's performs so far, per case: a client's next perform toggles its task from where the last
        // measurement left it, so every perform changes its row (the floor's index goes on likewise).
        var clientCounts = cases.map { Array(repeating: 0, count: $0.clients) }
        var rawIndex = 0
        for round in 0..<rounds {
            let order = round.isMultiple(of: 2) ? Array(cases.indices) : Array(cases.indices.reversed())
            for index in order where !groupCommitOnly || index == 3 {
                let benchCase = cases[index]
                // The group-commit case with 16 clients takes turns with its floor in short slices, so both meet
                // the same host: this machine's speed moves by half within seconds.
                let slices = index == 3 ? floorSlices : 1
                var (runnerCPU, runnerCount, runnerSeconds) = (0.0, 0, 0.0)
                var (floorCPU, floorCount) = (0.0, 0)
                for _ in 0..<slices {
                    measurement += 1
                    if index == 3 { try equalizeLedgers() }
                    let result = try await measure(benchCase.runner, clients: benchCase.clients,
                                                   seconds: seconds / Double(slices),
                                                   keyPrefix: "bench-\(measurement)", counts: &clientCounts[index])
                    runnerCPU += result.cpu
                    runnerCount += result.count
                    runnerSeconds += result.seconds
                    guard index == 3 else { continue }
                    let batch = try prepareFloor()
                    try equalizeLedgers()
                    let floor = try measureRaw(raw, batchSize: batch, seconds: seconds / Double(slices),
                                               firstIndex: rawIndex)
                    rawIndex += floor.count
                    floorCPU += floor.cpu
                    floorCount += floor.count
                }
                rates[index].append(Double(runnerCount) / runnerSeconds)
                cpuPerPerform[index].append(runnerCPU / Double(max(runnerCount, 1)))
                if index == 3 { rawCPU.append(floorCPU / Double(max(floorCount, 1))) }
            }
        }
        let medians = rates.map(StoreBenchmark.median)
        print("widgethost-bench intents: SQLite \(String(cString: sqlite3_libversion())), WAL, synchronous=FULL, "
            + "files in \(directory.path), \(rounds) rounds of \(seconds) s per case, cases alternating, medians; "
            + "every perform acknowledged after its COMMIT")
        print(row("case", "performs/s", "performs/commit", "CPU µs/perform", "rounds"))
        for (index, benchCase) in cases.enumerated() where !rates[index].isEmpty {
            let counts = benchCase.runner.statistics
            let perCommit = Double(counts.performs) / Double(max(counts.transactions, 1))
            print(row(benchCase.name, format(medians[index]), String(format: "%.1f", perCommit),
                      String(format: "%.0f", StoreBenchmark.median(cpuPerPerform[index])),
                      rates[index].map(format).joined(separator: " ")))
        }
        // Per round, so both sides of each ratio met the same disk conditions.
        let ratios = zip(rates[3], rates[2]).map { $0 / max($1, 0.001) }
        let groupCPU = StoreBenchmark.median(cpuPerPerform[3])
        let floorCPU = StoreBenchmark.median(rawCPU)
        print(row("raw sqlite3_*, same statements and batches", "", "", String(format: "%.0f", floorCPU),
                  rawCPU.map { String(format: "%.0f", $0) }.joined(separator: " ")))
        print("  (the floor's request and outcome texts: \(raw.textLengths.request) and \(raw.textLengths.outcome) bytes, "
              + "the average of the runner's stored keys)")
        // Per round too: the runner's case and the floor a moment apart, so a change in the host's speed between
        // rounds (this machine's moves by half within minutes) does not land on one side of the ratio only.
        let pairedRatios = zip(cpuPerPerform[3], rawCPU).map { $0 / max($1, 0.001) }
        print(row("CPU per perform, group commit 16 / raw (goal <= 2)",
                  String(format: "%.2f", StoreBenchmark.median(pairedRatios)), "", "",
                  pairedRatios.map { String(format: "%.2f", $0) }.joined(separator: " ")
                    + String(format: " (ratio of the medians %.2f)", groupCPU / floorCPU)))
        guard !ratios.isEmpty else { return }
        // Reported without a goal: it follows what an fsync costs on the day's disk (7x on a slow one, 4x on a fast
        // one), which is why the CPU against the raw floor above is the yardstick.
        print(row("group commit / per-perform, 16 clients (reported)",
                  String(format: "%.1fx", StoreBenchmark.median(ratios)), "", "",
                  ratios.map { String(format: "%.1fx", $0) }.joined(separator: " ")))
    }

    /// How many slices the group-commit case and its floor take turns in, per round.
    private static let floorSlices = 6

    /// Durable performs with `clients` concurrent clients for about `seconds`: how many, in how long, and the
    /// process's CPU time meanwhile (µs). Client `i` goes on from its `counts[i]`th perform, and leaves its count
    /// there.
    private static func measure(_ runner: IntentRunner, clients: Int, seconds: Double, keyPrefix: String,
                                counts: inout [Int]) async throws -> (count: Int, seconds: Double, cpu: Double) {
        let cpuBefore = processCPUMicroseconds()
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + .milliseconds(Int64(seconds * 1000))
        let first = counts
        let last = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for client in 0..<clients {
                group.addTask {
                    var performed = first[client]
                    while clock.now < deadline {
                        performed += 1
                        _ = try await runner.perform(
                            DemoCatalog.Intent.setTaskCompleted,
                            parameters: ["taskId": .string("task-\(client + 1)"),
                                         "completed": .bool(!performed.isMultiple(of: 2))],
                            idempotencyKey: "\(keyPrefix)-\(client)-\(performed)")
                    }
                    return (client, performed)
                }
            }
            return try await group.reduce(into: first) { counts, result in counts[result.0] = result.1 }
        }
        let elapsed = (clock.now - start).seconds
        counts = last
        let count = zip(last, first).reduce(0) { $0 + $1.0 - $1.1 }
        return (count, elapsed, processCPUMicroseconds() - cpuBefore)
    }

    /// The raw floor performing for about `seconds` from its `firstIndex`th perform: how many, and the CPU time
    /// meanwhile (µs).
    private static func measureRaw(_ raw: RawPerformWriter, batchSize: Int, seconds: Double,
                                   firstIndex: Int) throws -> (count: Int, cpu: Double) {
        let cpuBefore = processCPUMicroseconds()
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int64(seconds * 1000))
        var count = 0
        while clock.now < deadline {
            count += try raw.perform(count: batchSize * 4, batchSize: batchSize, clients: 16,
                                     keyPrefix: "raw", firstIndex: firstIndex + count)
        }
        return (count, processCPUMicroseconds() - cpuBefore)
    }

    /// User plus system CPU time of the whole process so far, in microseconds.
    private static func processCPUMicroseconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func microseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1_000_000 + Double(time.tv_usec) }
        return microseconds(usage.ru_utime) + microseconds(usage.ru_stime)
    }

    private static func row(_ name: String, _ value: String, _ perCommit: String, _ cpu: String,
                            _ detail: String) -> String {
        name.padding(toLength: 52, withPad: " ", startingAt: 0) + value.padding(toLength: 12, withPad: " ", startingAt: 0)
            + perCommit.padding(toLength: 17, withPad: " ", startingAt: 0)
            + cpu.padding(toLength: 16, withPad: " ", startingAt: 0) + detail
    }

    private static func format(_ rate: Double) -> String {
        rate >= 10_000 ? String(format: "%.0fk", rate / 1000) : String(format: "%.0f", rate)
    }
}
