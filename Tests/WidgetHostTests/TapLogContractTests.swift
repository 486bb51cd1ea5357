import DeepLinks
import Foundation
import PostgresStore
import PostgresTestSupport
import Testing
import WidgetHost

/// One tap log under test: SQLite's (`TapStore`) or PostgreSQL's (`PostgresTapLog`), over a fresh engine.
struct TapLogSubject {
    enum Backend: String, Sendable { case sqlite, postgres }

    let fixture: EngineFixture
    let log: any TapLog
    /// The report answered from the taps, never the rollups.
    let rawReport: (TapReportQuery) throws -> TapReport
    /// The table that would answer a report (nil: the taps).
    let rollupTable: (TapReportQuery) throws -> String?

    init(_ backend: Backend) throws {
        fixture = try EngineFixture()
        let routes = RouteTableHolder(try RouteTable.load(directory: defaultRoutesDirectory))
        switch backend {
        case .sqlite:
            let store = TapStore(engineStore: fixture.store, routes: routes)
            log = store
            rawReport = { try store.report($0, source: .rawRows) }
            rollupTable = { try store.rollupTable(answering: $0) }
        case .postgres:
            let pool = try PostgresPool(connectionString: try ThrowawayCluster.shared().makeDatabase())
            let store = try PostgresTapLog(pool: pool, engineStore: fixture.store, routes: routes)
            log = store
            rawReport = { try store.report($0, source: .rawRows) }
            rollupTable = { try store.rollupTable(answering: $0) }
        }
    }
}

/// The promises every ``TapLog`` keeps, each a case run against both stores by the two suites below.
struct TapLogContract: Sendable, CustomTestStringConvertible {
    let name: String
    let body: @Sendable (TapLogSubject) async throws -> Void

    var testDescription: String { name }

    static let cases: [TapLogContract] = [
        TapLogContract(name: "every report equals an independent count, from the rollups and from the taps") { subject in
            let start = EngineFixture.date("2026-03-01T00:00:00Z")
            var generator = TapIngestionTests.Generator(state: 0xC0FFEE)
            var byRouteAndDay: [String: Int] = [:]
            var byFamily: [String: Int] = [:]
            var batch: [Tap] = []
            let dayFormat = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!).year().month().day()
            for index in 0..<3000 {
                let shape = TapIngestionTests.shapes[generator.next(TapIngestionTests.shapes.count)]
                let family = TapIngestionTests.families[generator.next(TapIngestionTests.families.count)]
                let date = start.addingTimeInterval(Double(generator.next(40 * 86400)) + 0.25)
                batch.append(Tap(url: shape.url(index), kind: "TaskList", family: family,
                                 source: generator.next(4) == 0 ? .link : .widgetURL, date: date))
                byRouteAndDay[(shape.route ?? TapReport.unmatchedRoute) + " " + date.formatted(dayFormat), default: 0] += 1
                byFamily[family, default: 0] += 1
                if batch.count == 500 {
                    try subject.log.record(batch: batch)
                    batch.removeAll()
                }
            }
            #expect(try subject.log.count(from: .distantPast, to: .distantFuture) == 3000)
            let daily = TapReportQuery(dimensions: [.route], bucket: .day, timeZone: TimeZone(identifier: "UTC")!)
            #expect(try subject.rollupTable(daily) == "tap_rollups_by_route")
            let report = try subject.log.report(daily)
            #expect(Dictionary(uniqueKeysWithValues: report.rows.map { ("\($0.route ?? "?") \($0.bucket ?? "?")", $0.taps) })
                    == byRouteAndDay)
            let families = try subject.log.report(TapReportQuery(dimensions: [.family]))
            #expect(try subject.rollupTable(TapReportQuery(dimensions: [.family])) == nil)
            #expect(Dictionary(uniqueKeysWithValues: families.rows.map { ($0.family ?? "?", $0.taps) }) == byFamily)
            #expect(families.rows.map { $0.family ?? "" } == byFamily.keys.sorted(), "groups in byte order")
            // Rollups and taps agree across zones with DST changes and quarter-hour offsets, and odd range ends.
            for zone in ["UTC", "America/New_York", "Asia/Kathmandu", "Australia/Lord_Howe"] {
                for range in [(from: start.addingTimeInterval(86400), to: start.addingTimeInterval(30 * 86400)),
                              (from: start.addingTimeInterval(6.5 * 86400 + 2700), to: start.addingTimeInterval(36 * 86400 + 17))] {
                    for bucket in [nil, TapTimeBucket.hour, .day] {
                        let query = TapReportQuery(from: range.from, to: range.to, dimensions: [.route], bucket: bucket,
                                                   timeZone: TimeZone(identifier: zone)!)
                        #expect(try subject.log.report(query) == subject.rawReport(query), "\(zone) \(range) \(String(describing: bucket))")
                    }
                }
            }
            let filtered = try subject.log.report(TapReportQuery(dimensions: [], filters: [.route: TapReport.unmatchedRoute]))
            #expect(filtered.totalTaps == byRouteAndDay.filter { $0.key.hasPrefix(TapReport.unmatchedRoute) }.values.reduce(0, +))
        },
        TapLogContract(name: "unmatched URLs: most tapped first, ties by URL, with the nearest route") { subject in
            let now = TapReportTests.now
            try subject.log.record(batch: Array(repeating: TapReportTests.tap("myapp://taks/task-1"), count: 3)
                + Array(repeating: TapReportTests.tap("myapp://widget?kind=TaskList"), count: 2)
                + [TapReportTests.tap("myapp://widget?kind=TaskList&source=homescreen", source: .link),
                   TapReportTests.tap("myapp://task/task-1"), TapReportTests.tap("::not a url::")])
            let unmatched = try subject.log.unmatchedURLs(from: nil, to: nil, limit: 20)
            #expect(unmatched.map(\.url) == ["myapp://taks/task-1", "myapp://widget?kind=TaskList", "::not a url::",
                                             "myapp://widget?kind=TaskList&source=homescreen"])
            #expect(unmatched.map(\.taps) == [3, 2, 1, 1])
            #expect(unmatched.first?.lastTapped == now)
            #expect(unmatched.first?.nearest?.routeName == "task.detail")
            #expect(try subject.log.unmatchedURLs(from: nil, to: nil, limit: 1).count == 1)
            #expect(try subject.log.unmatchedURLs(from: now.addingTimeInterval(1), to: nil, limit: 20).isEmpty)
        },
        TapLogContract(name: "a batch is stored whole or not at all; instances name their widget") { subject in
            try await subject.fixture.engine.place(kind: "TaskList", family: .systemLarge, id: "tasks")
            let now = subject.fixture.clock.now
            let first = try subject.log.record(batch: [Tap(url: "myapp://task/task-2", instanceID: "tasks", source: .link, date: now)])
            #expect(first.map(\.kind) == ["TaskList"] && first.map(\.family) == ["systemLarge"])
            #expect(first.map(\.route) == ["task.detail"])
            #expect(throws: TapError.unknownInstance("gone")) {
                try subject.log.record(batch: [Tap(url: "myapp://task/task-2", instanceID: "tasks", source: .link, date: now),
                                               Tap(url: "myapp://task/task-2", instanceID: "gone", source: .link, date: now)])
            }
            #expect(throws: TapError.self) {
                try subject.log.record(batch: [Tap(url: "myapp://task/1", kind: "TaskList", family: "systemSmall",
                                                   source: .link, date: Date(timeIntervalSince1970: 1e300))])
            }
            #expect(try subject.log.count(from: .distantPast, to: .distantFuture) == 1, "nothing of a failed batch")
            let flagged = try subject.log.record(batch: [Tap(url: "myapp://task/task-3", kind: "TaskList",
                                                             family: "accessoryCircular", source: .link, date: now)])
            #expect(flagged.first?.diagnostic == .linkOnFamilyWithoutLinks)
            let report = try subject.log.report(TapReportQuery(dimensions: []))
            #expect(report.totalTaps == 2 && report.totalSuspicious == 1)
            let many = try subject.log.record(batch: (0..<250).map { index in
                Tap(url: "myapp://task/task-\(index)", kind: "TaskList", family: "systemSmall", source: .widgetURL,
                    date: now.addingTimeInterval(-1))
            })
            #expect(Set(many.map(\.id)).count == 250 && !many.map(\.id).contains(first[0].id), "every tap its own id")
            #expect(many.allSatisfy { $0.route == "task.detail" })
            #expect(try subject.log.count(from: now.addingTimeInterval(-1), to: now) == 250)
            #expect(try subject.log.count(from: now, to: now.addingTimeInterval(1)) == 2)
            #expect(try subject.log.count(from: now.addingTimeInterval(1), to: .distantFuture) == 0)
        },
        TapLogContract(name: "text is stored as given: quotes, emoji, no truncation at a NUL-free byte") { subject in
            let url = "myapp://nowhere?q='x'&e=🚀&p=%00"
            try subject.log.record(batch: [Tap(url: url, kind: "Daily", family: "systemSmall", source: .widgetURL,
                                               date: TapReportTests.now)])
            #expect(try subject.log.unmatchedURLs(from: nil, to: nil, limit: 5).map(\.url) == [url])
        },
    ]
}

@Suite("Tap log contract on SQLite")
struct SQLiteTapLogContractTests {
    @Test(arguments: TapLogContract.cases)
    func contract(_ contract: TapLogContract) async throws {
        try await contract.body(TapLogSubject(.sqlite))
    }
}

@Suite("Tap log contract on PostgreSQL",
       .enabled(if: ThrowawayCluster.isAvailable, Comment(rawValue: ThrowawayCluster.skipReason)))
struct PostgresTapLogContractTests {
    @Test(arguments: TapLogContract.cases)
    func contract(_ contract: TapLogContract) async throws {
        try await contract.body(TapLogSubject(.postgres))
    }
}
