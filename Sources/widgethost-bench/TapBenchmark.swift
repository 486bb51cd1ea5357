import DeepLinks
import Foundation
import SharedState
import WidgetHost

/// `widgethost-bench taps`: durable tap ingestion (batched and one tap per transaction) against bare `sqlite3_*`
/// calls writing the same rows in the same batches (with and without the rollup tables), and report queries from
/// the rollups beside the same report from the taps and a bare `GROUP BY`.
///
/// Taps are generated in time order (a live stream), so the time-first indexes grow at their right edge.
///
/// The store is the engine store on disk (WAL, `synchronous = FULL`), so every commit is one WAL fsync; taps are
/// routed through the default `Routes/` table on the way in. The batched run is also what fills the log (1M taps
/// over 30 days by default) for the queries, which report the median of five runs each.
enum TapBenchmark {
    static func run(arguments: [String]) throws {
        var directory = FileManager.default.temporaryDirectory
        var total = 1_000_000
        var batchSize = 1000
        var unbatchedSeconds = 2.0
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--dir": directory = URL(fileURLWithPath: try BenchmarkOptionValue.path(argument, iterator.next()))
            case "--taps": total = try BenchmarkOptionValue.integer(argument, iterator.next(), in: 10_000...Int.max)
            case "--batch": batchSize = try BenchmarkOptionValue.integer(argument, iterator.next(), in: 1...Int.max)
            case "--seconds": unbatchedSeconds = try BenchmarkOptionValue.seconds(argument, iterator.next(), atLeast: 0.2)
            default:
                throw BenchmarkUsage(message: "unknown option \(argument); options: --dir PATH --taps N --batch N --seconds S")
            }
        }
        let work = directory.appendingPathComponent("widgethost-bench-taps-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let routes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Routes").path
        let table = try RouteTable.load(directory: routes)
        let store = TapStore(engineStore: try EngineStore(directory: work), routes: table)
        let raw = try RawTapWriter(path: work.appendingPathComponent("raw.sqlite").path, rollups: false)
        let rawRollups = try RawTapWriter(path: work.appendingPathComponent("raw-rollups.sqlite").path, rollups: true)
        let start = Date(timeIntervalSince1970: 1_793_491_200)  // 2026-11-01T00:00:00Z
        var generator = TapGenerator(start: start, spacing: 30 * 86400 / Double(total))
        let clock = ContinuousClock()

        print("widgethost-bench taps: engine store in \(work.path) (WAL, synchronous=FULL), routed through Routes/;")
        print("raw SQLite: the same rows in the same batches, bare sqlite3_* calls, same table and indexes,")
        print("with and without the rollup tables; the three writers take turns batch by batch, in rotating order")
        print("")
        print(pad("case", 58) + pad("taps", 12) + pad("time", 12) + "rate / result")

        var times = [Duration.zero, .zero, .zero]
        var stored = 0
        var batchIndex = 0
        while stored < total {
            let batch = (0..<min(batchSize, total - stored)).map { _ in generator.next() }
            // The floor is given each tap's route and finding: routing is the tap log's work, not SQLite's.
            let rows = batch.map { tap in
                let family = tap.family ?? ""
                let route = try? table.withMatch(tap.url, context: TapContext(
                    source: tap.source, family: WidgetFamilyName(rawValue: family))) { $0.routeName }.get()
                return RawTapWriter.Row(
                    date: tap.date.timeIntervalSince1970, url: tap.url, route: route, kind: tap.kind ?? "",
                    family: family, source: tap.source.rawValue, location: tap.location.rawValue,
                    suspicious: tap.source == .link && WidgetFamilyName(rawValue: family)?.canShowLink == false)
            }
            for turn in 0..<3 {
                let writer = (batchIndex + turn) % 3
                let began = clock.now
                switch writer {
                case 0: try store.record(batch: batch)
                case 1: try raw.write(rows)
                default: try rawRollups.write(rows)
                }
                times[writer] += clock.now - began
            }
            stored += batch.count
            batchIndex += 1
        }
        let rates = times.map { Double(stored) / seconds($0) }
        for (name, index) in [("ingest, \(batchSize) per transaction, tap log (fills the log)", 0),
                              ("ingest, raw sqlite3_*, taps only", 1), ("ingest, raw sqlite3_*, taps + rollups", 2)] {
            print(pad(name, 58) + pad("\(stored)", 12) + pad(format(times[index]), 12) + "\(Int(rates[index])) taps/s")
        }
        print(pad("  tap log / raw taps + rollups; / raw taps only", 58) + pad("", 24)
              + String(format: "%.2f; %.2f", rates[0] / rates[2], rates[0] / rates[1]))
        print(pad("  raw taps + rollups / raw taps only (what rollups cost SQLite)", 58) + pad("", 24)
              + String(format: "%.2f", rates[2] / rates[1]))

        var single = 0
        let singleStart = clock.now
        while clock.now - singleStart < .milliseconds(Int64(unbatchedSeconds * 1000)) {
            try store.record(generator.next())
            single += 1
        }
        let singleTime = clock.now - singleStart
        print(pad("ingest, 1 tap per transaction", 58) + pad("\(single)", 12) + pad(format(singleTime), 12)
              + "\(Int(Double(single) / seconds(singleTime))) taps/s")

        let whole = TapReportQuery(from: start, to: start.addingTimeInterval(31 * 86400), dimensions: [.route],
                                   bucket: .day)
        let week = TapReportQuery(from: start.addingTimeInterval(10 * 86400), to: start.addingTimeInterval(17 * 86400),
                                  dimensions: [.route], bucket: .day)
        var newYorkWhole = whole
        newYorkWhole.timeZone = TimeZone(identifier: "America/New_York")!
        var kathmanduWhole = whole
        kathmanduWhole.timeZone = TimeZone(identifier: "Asia/Kathmandu")!
        var detailed = whole
        detailed.dimensions = [.route, .family, .location]
        for (name, query) in [("report route x day, whole range (30 days)", whole),
                              ("report route x day, one week", week),
                              ("report route x day, whole range, America/New_York", newYorkWhole),
                              ("report route x day, whole range, Asia/Kathmandu", kathmanduWhole),
                              ("report route x family x location x day, whole range", detailed)] {
            for source in [TapReportSource.automatic, .rawRows] {
                var report: TapReport?
                let time = BenchTiming.median(of: 5) {
                    report = try? store.report(query, source: source)
                }
                let fromRollups = source == .automatic && (try? store.rollupTable(answering: query)) != nil
                if source == .rawRows && !fromRollups && query == detailed { continue }
                let label = source == .rawRows ? "  the same from the taps" : name + (fromRollups ? " (rollups)" : "")
                print(pad(label, 58) + pad("\(report?.totalTaps ?? 0)", 12) + pad(format(time), 12)
                      + "\(report?.rows.count ?? 0) rows")
            }
        }
        var rawRows = 0
        let rawTime = BenchTiming.median(of: 5) { rawRows = (try? raw.routeByDay()) ?? 0 }
        print(pad("  raw sqlite3_*: route x UTC day GROUP BY over the taps", 58) + pad("\(stored)", 12)
              + pad(format(rawTime), 12) + "\(rawRows) rows")
        var unmatched: [UnmatchedURL] = []
        let unmatchedTime = BenchTiming.median(of: 5) { unmatched = (try? store.unmatchedURLs(limit: 20)) ?? [] }
        print(pad("top 20 unmatched URLs with nearest routes, whole range", 58) + pad("\(unmatched.reduce(0) { $0 + $1.taps })", 12)
              + pad(format(unmatchedTime), 12) + "\(unmatched.count) URLs")
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func format(_ duration: Duration) -> String {
        let value = seconds(duration)
        return value >= 1 ? String(format: "%.2f s", value) : String(format: "%.1f ms", value * 1000)
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

/// Deterministic taps over the default routes: mostly matched, some broken links, some suspicious Link taps.
///
/// Taps arrive in time order with a little jitter, as a live stream does: `spacing` seconds apart on average.
struct TapGenerator {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var index = 0
    let start: Date
    let spacing: TimeInterval
    private static let kinds = ["TaskList", "ProjectProgress", "Daily"]
    private static let families = ["systemSmall", "systemMedium", "systemLarge", "accessoryRectangular"]

    init(start: Date, spacing: TimeInterval) {
        self.start = start
        self.spacing = spacing
    }

    private mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }

    private mutating func nextIndex() -> Int {
        defer { index += 1 }
        return index
    }

    mutating func next() -> Tap {
        let id = next(500)
        let url: String
        switch next(10) {
        case 0...3: url = "myapp://task/task-\(id)"
        case 4...5: url = "myapp://project/proj-\(id % 20)"
        case 6: url = "https://myapp.example.com/task/task-\(id)?source=homescreen"
        case 7: url = "myapp://daily?image=pic\(id % 30).jpg"
        case 8: url = "myapp://widget?kind=TaskList&source=homescreen"
        default: url = "myapp://taks/task-\(id % 40)"
        }
        return Tap(url: url, kind: Self.kinds[next(3)], family: Self.families[next(4)],
                   source: next(5) == 0 ? .link : .widgetURL, location: TapLocation.allCases[next(3)],
                   date: start.addingTimeInterval(Double(nextIndex()) * spacing + Double(next(60))))
    }
}
