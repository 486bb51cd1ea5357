import AppIntents
import Foundation
import SharedState
import WidgetHost
import WidgetKit

/// `widgethost-bench timelines`: how the engine's cost follows configurations rather than instances.
///
/// 1. Refresh: `reloadAllTimelines()` over 1k distinct configurations held by 1k instances, then by 100k
///    instances (100 per configuration). Provider work is the same (1k runs), and so are the schedule and budget
///    rows (one per configuration, shared by its instances); the difference is the instances each run served: their
///    list in the reload log (interned: written when it changed), read from the store when one joined or left, and
///    the ids in the engine's records. Goal: ratio ≤ 1.5. Beside each, in turns within the same run, the floor: the
///    same rows written with bare `sqlite3_*` calls in the same batches (`RawTimelineWriter`), checked against the
///    engine's reload log after the rounds.
///    Goal: ≤ 3× the floor at 1k instances. Beside the times, the process's CPU time (user + system, from
///    `getrusage`) in each: the engine's work is CPU, the floor's mostly waiting for `fsync`, so on a loaded machine
///    the time ratio moves with the load and the CPU ratio much less.
/// 2. Due reloads: the first 100 due reloads among 10k, then 1M scheduled instances, through the schedule
///    index. Goal: ratio ≤ 2.
enum TimelineBenchmark {
    static func run(arguments: [String]) async throws {
        var refreshSizes = [1_000, 100_000]
        var dueSizes = [10_000, 1_000_000]
        var rounds = 3
        if arguments.contains("--quick") {
            refreshSizes = [1_000, 10_000]
            dueSizes = [10_000, 100_000]
            rounds = 1
        }
        if arguments.contains("--refresh-only") { dueSizes = [] }
        // `--instances N`: one refresh size only (profiling under valgrind).
        if let index = arguments.firstIndex(of: "--instances") {
            let value = index + 1 < arguments.count ? arguments[index + 1] : nil
            refreshSizes = [try BenchmarkOptionValue.integer("--instances", value, in: 1...Int.max)]
            rounds = 1
        }
        // `--rounds N`: more rounds, so that a profile of the run is mostly the rebuilds.
        if let index = arguments.firstIndex(of: "--rounds") {
            let value = index + 1 < arguments.count ? arguments[index + 1] : nil
            rounds = try BenchmarkOptionValue.integer("--rounds", value, in: 1...Int.max)
        }
        print("widgethost-bench timelines: SQLite WAL synchronous=FULL in \(NSTemporaryDirectory()), 1k configurations")
        print("")
        print(pad("case", 52) + pad("instances", 12) + pad("time", 14) + pad("CPU", 12) + "ratio")
        var refresh: [Double] = []
        for size in refreshSizes {
            let measured = try await measureRefresh(instances: size, rounds: rounds)
            let seconds = measured.engine.seconds
            refresh.append(seconds)
            print(pad("reloadAllTimelines, 1k configurations (median of \(rounds))", 52) + pad("\(size)", 12)
                  + pad(String(format: "%.3f s", seconds), 14) + pad(String(format: "%.0f ms", measured.engine.cpu * 1000), 12)
                  + (refresh.count > 1 ? String(format: "%.2f of 1k instances (goal <= 1.5)", seconds / refresh[0]) : ""))
            print(pad("  raw sqlite3_*, same rows, same batches", 52) + pad("\(size)", 12)
                  + pad(String(format: "%.3f s", measured.raw.seconds), 14)
                  + pad(String(format: "%.0f ms", measured.raw.cpu * 1000), 12)
                  + String(format: "engine / raw %.2f%@, CPU %.2f", seconds / measured.raw.seconds,
                           size == refreshSizes[0] ? " (goal <= 3)" : "", measured.engine.cpu / measured.raw.cpu))
        }
        var due: [Double] = []
        for size in dueSizes {
            let micros = try await measureDue(instances: size)
            due.append(micros)
            print(pad("find the first 100 due reloads (median of 200)", 52) + pad("\(size)", 12)
                  + pad(String(format: "%.1f us", micros), 14)
                  + (due.count > 1 ? String(format: "%.2f (goal <= 2)", micros / due[0]) : ""))
        }
    }

    static let configurations = 1_000

    static func engine(in directory: URL) throws -> (WidgetEngine, VirtualClock) {
        var catalog = WidgetCatalog()
        catalog.register(kind: "Series", provider: SeriesProvider())
        let clock = VirtualClock(start: Date(timeIntervalSince1970: 1_800_000_000))
        let store = try EngineStore(directory: directory)
        return (WidgetEngine(catalog: catalog, store: store, clock: clock), clock)
    }

    static func placements(_ count: Int) -> [WidgetPlacement] {
        (0..<count).map { index in
            WidgetPlacement(id: "w\(index)", kind: "Series", family: .systemMedium,
                            parameters: ["series": .int(index % configurations)])
        }
    }

    /// The engine's `reloadAllTimelines()` and the raw floor's rewrite of the same rows, in turns, `rounds` times
    /// each, on two stores placed alike; the medians in seconds, of wall time and of the process's CPU time.
    private static func measureRefresh(instances: Int, rounds: Int) async throws
        -> (engine: (seconds: Double, cpu: Double), raw: (seconds: Double, cpu: Double)) {
        let directory = try scratch("refresh-\(instances)")
        let rawDirectory = try scratch("refresh-raw-\(instances)")
        defer {
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.removeItem(at: rawDirectory)
        }
        let (engine, clock) = try engine(in: directory)
        try await engine.place(placements(instances))
        let (rawEngine, _) = try Self.engine(in: rawDirectory)
        try await rawEngine.place(placements(instances))
        let raw = try RawTimelineWriter(path: rawDirectory.appendingPathComponent("widgethost.sqlite").path)
        precondition(raw.configurationCount == configurations, "the floor's store holds every configuration")
        var engineTimes: [Double] = []
        var rawTimes: [Double] = []
        var engineCPU: [Double] = []
        var rawCPU: [Double] = []
        let timer = ContinuousClock()
        for _ in 0..<rounds {
            let start = timer.now
            let cpu = processCPUSeconds()
            let runs = try await engine.reloadAllTimelines()
            engineTimes.append(seconds(timer.now - start))
            engineCPU.append(processCPUSeconds() - cpu)
            precondition(runs.count == configurations, "expected one provider run per configuration, got \(runs.count)")
            let rawStart = timer.now
            let rawCPUStart = processCPUSeconds()
            try raw.rewriteAll(now: clock.now.timeIntervalSince1970, batchSize: WidgetEngine.reloadBatchSize)
            rawTimes.append(seconds(timer.now - rawStart))
            rawCPU.append(processCPUSeconds() - rawCPUStart)
        }
        // The floor is a floor only while it writes what the engine writes.
        try raw.sameReloadLog(asStoreAt: directory.appendingPathComponent("widgethost.sqlite").path)
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return ((median(engineTimes), median(engineCPU)), (median(rawTimes), median(rawCPU)))
    }

    /// User plus system CPU time of the whole process so far, in seconds.
    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func measureDue(instances: Int) async throws -> Double {
        let directory = try scratch("due-\(instances)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (engine, clock) = try engine(in: directory)
        try await engine.place(placements(instances))
        // Configurations are due an hour plus `series` seconds out: ask for what is due by the middle of that.
        let horizon = clock.now.addingTimeInterval(3600 + Double(configurations / 2))
        var samples: [Double] = []
        let timer = ContinuousClock()
        for _ in 0..<200 {
            let start = timer.now
            let due = try await engine.upcomingReloads(through: horizon, limit: 100)
            let elapsed = timer.now - start
            precondition(due.count == 100, "expected 100 due reloads, got \(due.count)")
            samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
        }
        return samples.sorted()[samples.count / 2]
    }

    private static func scratch(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("widgethost-bench-\(name)-\(getpid())", isDirectory: true)
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

/// A benchmark widget: 24 hourly entries computed from its series number, due again an hour (plus the series
/// number of seconds, so configurations are due at distinct times) after each run.
struct SeriesIntent: WidgetConfigurationIntent {
    static let title: LocalizedStringResource = "Series"
    @Parameter(title: "Series", default: 0) var series: Int
    init() {}
}

struct SeriesEntry: TimelineEntry, Codable, Sendable {
    var date: Date
    var series: Int
    var value: Double
    var label: String
}

struct SeriesProvider: AppIntentTimelineProvider, Sendable {
    func placeholder(in context: Context) -> SeriesEntry {
        SeriesEntry(date: .distantPast, series: 0, value: 0, label: "")
    }

    func snapshot(for configuration: SeriesIntent, in context: Context) async -> SeriesEntry {
        placeholder(in: context)
    }

    func timeline(for configuration: SeriesIntent, in context: Context) async -> Timeline<SeriesEntry> {
        let now = HostEnvironment.current?.now ?? Date()
        // As a widget's provider does: the entry carries the data (the number) and a label from the app's own
        // data; the number is formatted for display by the widget's view, not once per entry here (a
        // `String(format:)` per entry was a fifth of the whole rebuild, and is user code, not the engine's).
        let entries = (0..<24).map { hour in
            SeriesEntry(date: now.addingTimeInterval(Double(hour) * 3600), series: configuration.series,
                        value: sin(Double(configuration.series + hour) / 7),
                        label: "series \(configuration.series), hour \(hour)")
        }
        return Timeline(entries: entries, policy: .after(now.addingTimeInterval(3600 + Double(configuration.series))))
    }
}
