import DeepLinks
import Foundation
import SharedState
import WidgetHost

/// `widgethost-bench taps`: durable tap ingestion (batched and one tap per transaction) and report queries over
/// the stored log.
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
            case "--dir": directory = URL(fileURLWithPath: iterator.next() ?? directory.path)
            case "--taps": total = max(10_000, Int(iterator.next() ?? "") ?? total)
            case "--batch": batchSize = max(1, Int(iterator.next() ?? "") ?? batchSize)
            case "--seconds": unbatchedSeconds = max(0.2, Double(iterator.next() ?? "") ?? unbatchedSeconds)
            default:
                throw BenchmarkUsage(message: "unknown option \(argument); options: --dir PATH --taps N --batch N --seconds S")
            }
        }
        let work = directory.appendingPathComponent("widgethost-bench-taps-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let routes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Routes").path
        let store = TapStore(engineStore: try EngineStore(directory: work), routes: try RouteTable.load(directory: routes))
        let start = Date(timeIntervalSince1970: 1_793_491_200)  // 2026-11-01T00:00:00Z
        var generator = TapGenerator(start: start, spacing: 30 * 86400 / Double(total))
        let clock = ContinuousClock()

        print("widgethost-bench taps: engine store in \(work.path) (WAL, synchronous=FULL), routed through Routes/")
        print("")
        print(pad("case", 58) + pad("taps", 12) + pad("time", 12) + "rate / result")

        var batchedTime = Duration.zero
        var stored = 0
        while stored < total {
            let batch = (0..<min(batchSize, total - stored)).map { _ in generator.next() }
            let began = clock.now
            try store.record(batch: batch)
            batchedTime += clock.now - began
            stored += batch.count
        }
        print(pad("ingest, \(batchSize) taps per transaction (fills the log)", 58) + pad("\(stored)", 12)
              + pad(format(batchedTime), 12) + "\(Int(Double(stored) / seconds(batchedTime))) taps/s")

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
        for (name, query) in [("report route x day, whole range (30 days)", whole),
                              ("report route x day, one week", week),
                              ("report route x day, whole range, America/New_York", newYorkWhole)] {
            var report: TapReport?
            let time = median(5) {
                report = try? store.report(query)
            }
            print(pad(name, 58) + pad("\(report?.totalTaps ?? 0)", 12) + pad(format(time), 12)
                  + "\(report?.rows.count ?? 0) rows")
        }
        var unmatched: [UnmatchedURL] = []
        let unmatchedTime = median(5) { unmatched = (try? store.unmatchedURLs(limit: 20)) ?? [] }
        print(pad("top 20 unmatched URLs with nearest routes, whole range", 58) + pad("\(unmatched.reduce(0) { $0 + $1.taps })", 12)
              + pad(format(unmatchedTime), 12) + "\(unmatched.count) URLs")
    }

    private static func median(_ runs: Int, _ body: () -> Void) -> Duration {
        let clock = ContinuousClock()
        var times: [Duration] = []
        for _ in 0..<runs {
            let began = clock.now
            body()
            times.append(clock.now - began)
        }
        return times.sorted()[runs / 2]
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
