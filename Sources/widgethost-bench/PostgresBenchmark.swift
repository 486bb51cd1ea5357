import DeepLinks
import Foundation
import PostgresStore
import WidgetHost

/// `widgethost-bench postgres --postgres URL`: tap ingestion into PostgreSQL by one and by two writers (two tap
/// logs with pools of their own, as two daemons have) beside the engine store's SQLite, in the same run on the same
/// taps; then the report latency over the whole log (1M taps by default) on both, from the rollups and from the taps.
///
/// The database must be empty (`Benchmarks/postgres-bench.sh` makes a throwaway cluster with `fsync` on, runs this
/// and removes it). SQLite is the engine store on disk (WAL, `synchronous = FULL`). Both route every tap through the
/// default `Routes/` table on the way in. What two daemons add over this is their HTTP layer, measured elsewhere.
enum PostgresBenchmark {
    static func run(arguments: [String]) throws {
        var url = ProcessInfo.processInfo.environment["WIDGETHOST_BENCH_POSTGRES"]
        var directory = FileManager.default.temporaryDirectory
        var total = 1_000_000
        var timed = 100_000
        var batchSize = 1000
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--postgres": url = iterator.next()
            case "--dir": directory = URL(fileURLWithPath: try BenchmarkOptionValue.path(argument, iterator.next()))
            case "--taps": total = try BenchmarkOptionValue.integer(argument, iterator.next(), in: 20_000...Int.max)
            case "--timed": timed = try BenchmarkOptionValue.integer(argument, iterator.next(), in: 10_000...Int.max)
            case "--batch": batchSize = try BenchmarkOptionValue.integer(argument, iterator.next(), in: 1...Int.max)
            default:
                throw BenchmarkUsage(message: "unknown option \(argument); options: --postgres URL --dir PATH --taps N --timed N --batch N")
            }
        }
        guard let url else {
            throw BenchmarkUsage(message: "needs --postgres URL (or $WIDGETHOST_BENCH_POSTGRES): an empty database; "
                                 + "Benchmarks/postgres-bench.sh makes one")
        }
        timed = min(timed, total / 2)
        let work = directory.appendingPathComponent("widgethost-bench-postgres-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let routesPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Routes").path
        let routes = RouteTableHolder(try RouteTable.load(directory: routesPath))
        let engineStore = try EngineStore(directory: work)
        let sqlite = TapStore(engineStore: engineStore, routes: routes)
        let firstPool = try PostgresPool(connectionString: url, maximumConnections: 2)
        let existing = try firstPool.withConnection { db in
            try db.queryOne("SELECT to_regclass('taps') IS NOT NULL AS found")?.bool("found")
        }
        guard existing == false else { throw BenchmarkUsage(message: "the database already has a taps table: use an empty one") }
        let first = try PostgresTapLog(pool: firstPool, engineStore: engineStore, routes: routes)
        let second = try PostgresTapLog(pool: try PostgresPool(connectionString: url, maximumConnections: 2),
                                        engineStore: engineStore, routes: routes)
        let start = Date(timeIntervalSince1970: 1_793_491_200)  // 2026-11-01T00:00:00Z
        var generator = TapGenerator(start: start, spacing: 30 * 86400 / Double(total))
        func batches(_ count: Int) -> [[Tap]] {
            stride(from: 0, to: count, by: batchSize).map { offset in
                (0..<min(batchSize, count - offset)).map { _ in generator.next() }
            }
        }

        print("widgethost-bench postgres: SQLite engine store in \(work.path) (WAL, synchronous=FULL) beside")
        print("PostgreSQL (\(try serverVersion(firstPool))); taps routed through Routes/, batches of \(batchSize)")
        print("")
        print(pad("case", 58) + pad("taps", 12) + pad("time", 12) + "rate / result")

        // Warm-up, untimed: the first batches of a fresh database pay for its first WAL segments and pages.
        let warmUp = batches(timed / 5)
        for batch in warmUp {
            try sqlite.record(batch: batch)
            try first.record(batch: batch)
        }
        // Ingestion: as many taps into each store (the two PostgreSQL writers split theirs), in turn.
        let sqliteTaps = batches(timed)
        let oneTaps = batches(timed)
        let twoTaps = batches(timed)
        let sqliteTime = try BenchTiming.time { for batch in sqliteTaps { try sqlite.record(batch: batch) } }
        row("ingest, SQLite (1 daemon)", timed, sqliteTime)
        let oneTime = try BenchTiming.time { try concurrently(oneTaps, first, nil) }
        row("ingest, PostgreSQL, 1 writer", timed, oneTime)
        let twoTime = try BenchTiming.time { try concurrently(twoTaps, first, second) }
        row("ingest, PostgreSQL, 2 writers (2 pools, as 2 daemons)", timed, twoTime)

        // Fill both logs to the same total, untimed, then time reports over the whole log.
        var sqliteFilled = timed + timed / 5
        var postgresFilled = 2 * timed + timed / 5
        while sqliteFilled < total || postgresFilled < total {
            let more = batches(50 * batchSize)
            let count = more.reduce(0) { $0 + $1.count }
            if postgresFilled < total {
                try concurrently(more, first, second)
                postgresFilled += count
            }
            if sqliteFilled < total {
                for batch in more { try sqlite.record(batch: batch) }
                sqliteFilled += count
            }
        }
        let sqliteCount = try sqlite.count()
        let postgresCount = try first.count()
        print("")
        print("reports over the whole log: SQLite \(sqliteCount) taps, PostgreSQL \(postgresCount) taps (median of 5)")
        let daily = TapReportQuery(dimensions: [.route], bucket: .day, timeZone: TimeZone(identifier: "Europe/Paris")!)
        let byFamily = TapReportQuery(dimensions: [.family], bucket: .day, timeZone: TimeZone(identifier: "Europe/Paris")!)
        for (name, query) in [("by route and day (rollups)", daily), ("by family and day (taps)", byFamily)] {
            var rows = 0
            let sqliteReport = BenchTiming.median(of: 5) { rows = (try? sqlite.report(query).rows.count) ?? -1 }
            row("report \(name), SQLite", sqliteCount, sqliteReport, result: "\(rows) rows")
            let postgresReport = BenchTiming.median(of: 5) { rows = (try? first.report(query).rows.count) ?? -1 }
            row("report \(name), PostgreSQL", postgresCount, postgresReport, result: "\(rows) rows")
        }
    }

    /// Two writers, one per tap log, each taking every other batch; one writer taking them all when `second` is nil.
    private static func concurrently(_ batches: [[Tap]], _ first: PostgresTapLog, _ second: PostgresTapLog?) throws {
        let writers = [first] + (second.map { [$0] } ?? [])
        try BenchTiming.concurrently(writers.count) { index in
            for batch in batches[index...].enumerated().filter({ $0.offset % writers.count == 0 }).map(\.element) {
                try writers[index].record(batch: batch)
            }
        }
    }

    private static func serverVersion(_ pool: PostgresPool) throws -> String {
        try pool.withConnection { db in
            try db.queryOne("SELECT current_setting('server_version') AS v, current_setting('fsync') AS f").map {
                "server \($0.string("v") ?? "?"), fsync=\($0.string("f") ?? "?")"
            } ?? "?"
        }
    }

    private static func row(_ name: String, _ taps: Int, _ time: Duration, result: String? = nil) {
        let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
        let text = seconds >= 1 ? String(format: "%.2f s", seconds) : String(format: "%.1f ms", seconds * 1000)
        print(pad(name, 58) + pad("\(taps)", 12) + pad(text, 12)
              + (result ?? String(format: "%.0f taps/s", Double(taps) / seconds)))
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
