import DeepLinks
import Foundation
import SharedState
import Testing
import WidgetHost

@Suite("Tap rollups: every report from the quarter-hour counts equals the answer from the taps")
struct TapRollupTests {
    /// Zones with whole-hour, half-hour and quarter-hour offsets, with and without daylight saving; Lord Howe moves
    /// its clocks by half an hour.
    static let zones = ["UTC", "America/New_York", "Europe/London", "Asia/Kolkata", "Asia/Kathmandu",
                        "Australia/Adelaide", "Australia/Lord_Howe", "America/St_Johns"]
    static let groupings: [[TapDimension]] = [[], [.route], [.family, .route]]
    /// 2026-03-01T00:00:00Z; the taps run for 45 days over the March and April daylight-saving changes.
    static let start = Date(timeIntervalSince1970: 1_772_323_200)
    static let days = 45.0

    /// A store holding `count` taps spread over the 45 days, on any second (so quarter-hour edges are crossed).
    static func filledStore(count: Int = 3000) throws -> (EngineFixture, TapStore) {
        let (fixture, taps) = try TapIngestionTests.store()
        var generator = TapIngestionTests.Generator(state: 0x5EED)
        var batch: [Tap] = []
        for _ in 0..<count {
            let shape = TapIngestionTests.shapes[generator.next(TapIngestionTests.shapes.count)]
            let second = generator.next(Int(days * 86400))
            batch.append(Tap(url: shape.url(generator.next(50)),
                             kind: TapIngestionTests.kinds[generator.next(TapIngestionTests.kinds.count)],
                             family: TapIngestionTests.families[generator.next(TapIngestionTests.families.count)],
                             source: generator.next(4) == 0 ? .link : .widgetURL,
                             location: TapLocation.allCases[generator.next(TapLocation.allCases.count)],
                             date: start.addingTimeInterval(Double(second) + Double(generator.next(1000)) / 1000)))
            if batch.count == 250 {
                try taps.record(batch: batch)
                batch.removeAll()
            }
        }
        try taps.record(batch: batch)
        return (fixture, taps)
    }

    /// Ranges: open at both ends, whole days in UTC, and quarter hours around the daylight-saving changes.
    static var ranges: [(from: Date?, to: Date?)] {
        [(nil, nil), (start.addingTimeInterval(86400), start.addingTimeInterval(20 * 86400)),
         (start.addingTimeInterval(6.5 * 86400 + 2700), start.addingTimeInterval(36 * 86400 - 900)),
         (nil, start.addingTimeInterval(10 * 86400 + 4500)), (start.addingTimeInterval(28 * 86400 + 1800), nil)]
    }

    static func compare(_ taps: TapStore, zones: [String] = zones) throws {
        for zone in zones {
            let timeZone = try #require(TimeZone(identifier: zone))
            for range in ranges {
                for bucket in [nil, TapTimeBucket.hour, .day] {
                    for dimensions in groupings {
                        let query = TapReportQuery(from: range.from, to: range.to, dimensions: dimensions,
                                                   bucket: bucket, timeZone: timeZone)
                        let byRoute = dimensions.allSatisfy { $0 == .route }
                        #expect(try (taps.rollupTable(answering: query) != nil) == byRoute, "\(zone) \(range)")
                        let fromRollups = try taps.report(query)
                        let fromTaps = try taps.report(query, source: .rawRows)
                        #expect(fromRollups == fromTaps, "\(zone) \(dimensions) \(String(describing: bucket)) \(range)")
                    }
                }
            }
        }
    }

    @Test("every grouping, bucket, range and zone (half- and quarter-hour offsets, DST) matches the raw answer")
    func rollupsMatchRawRows() throws {
        let (_, taps) = try Self.filledStore()
        let whole = try taps.report(TapReportQuery(dimensions: []))
        #expect(whole.totalTaps == 3000)
        let days = try taps.report(TapReportQuery(dimensions: [.route], bucket: .day,
                                                  timeZone: TimeZone(identifier: "Australia/Lord_Howe")!))
        #expect(days.totalTaps == 3000 && days.rows.count > 45 * 3, "the data is spread over the days and routes")
        try Self.compare(taps)
    }

    @Test("the rollups answer reports by route or by nothing; any other grouping reads the taps")
    func tableChoice() throws {
        let (_, taps) = try Self.filledStore(count: 300)
        #expect(try taps.rollupTable(answering: TapReportQuery(dimensions: [.route], bucket: .day))
                == "tap_rollups_by_route")
        #expect(try taps.rollupTable(answering: TapReportQuery(dimensions: [])) == "tap_rollups_by_route")
        #expect(try taps.rollupTable(answering: TapReportQuery(dimensions: [.route, .kind])) == nil)
        #expect(try taps.rollupTable(answering: TapReportQuery(dimensions: [.family], bucket: .day)) == nil)
    }

    @Test("a route filter is answered from the rollups, matched or not; any other filter reads the taps")
    func filters() throws {
        let (_, taps) = try Self.filledStore(count: 1200)
        let byRoute = try taps.report(TapReportQuery(dimensions: [.route]))
        let busiest = try #require(byRoute.rows.max { $0.taps < $1.taps }?.route)
        let zone = try #require(TimeZone(identifier: "Asia/Kolkata"))
        for route in [busiest, TapReport.unmatchedRoute, "no-such-route"] {
            let query = TapReportQuery(dimensions: [], bucket: .day, timeZone: zone, filters: [.route: route])
            #expect(try taps.rollupTable(answering: query) == "tap_rollups_by_route")
            let fromRollups = try taps.report(query)
            #expect(fromRollups == (try taps.report(query, source: .rawRows)), "\(route)")
            #expect(fromRollups.totalTaps == byRoute.rows.first { $0.route == route }?.taps ?? 0, "\(route)")
        }
        let byKind = TapReportQuery(dimensions: [.route], filters: [.kind: TapIngestionTests.kinds[0]])
        #expect(try taps.rollupTable(answering: byKind) == nil)
        let kindCount = try taps.report(byKind).totalTaps
        #expect(kindCount > 0 && kindCount < 1200)
    }

    @Test("ends off a quarter hour, or a zone offset by a part of a quarter hour, are answered from the taps")
    func rawWhenRollupsCannotBeExact() throws {
        let (_, taps) = try Self.filledStore(count: 600)
        let offQuarter = TapReportQuery(from: Self.start.addingTimeInterval(86400 + 60), dimensions: [.route],
                                        bucket: .hour)
        let oddZone = TapReportQuery(dimensions: [.route], bucket: .hour,
                                     timeZone: try #require(TimeZone(secondsFromGMT: 3600 + 600)))
        // New York before 1883 kept local mean time, 4:56:02 behind UTC.
        let meanTime = TapReportQuery(from: Date(timeIntervalSince1970: -3_000_000_600), to: Self.start,
                                      dimensions: [.route], bucket: .day,
                                      timeZone: try #require(TimeZone(identifier: "America/New_York")))
        for query in [offQuarter, oddZone, meanTime] {
            #expect(try taps.rollupTable(answering: query) == nil)
            #expect(try taps.report(query) == taps.report(query, source: .rawRows))
        }
        #expect(try taps.report(offQuarter).totalTaps > 0 && taps.report(oddZone).totalTaps == 600)
    }

    @Test("open ends are closed by the first and last taps, read from the index's two ends without a scan")
    func openEndsReadTheIndexEnds() throws {
        let (fixture, taps) = try Self.filledStore(count: 1200)
        let plan = try fixture.store.database.read { db in
            try db.query("EXPLAIN QUERY PLAN " + TapStore.firstAndLastTapSQL).compactMap { $0.string("detail") }
        }
        #expect(plan.filter { $0.hasPrefix("SEARCH taps USING COVERING INDEX") }.count == 2, "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN taps") }, "MIN and MAX must not scan the log: \(plan)")

        let instants = try fixture.store.database.read { db in
            try db.query("SELECT tapped_at FROM taps").compactMap { $0.date("tapped_at") }
        }
        let first = try #require(instants.min())
        let last = try #require(instants.max())
        let zone = try #require(TimeZone(identifier: "Asia/Kathmandu"))
        for (from, to) in [(nil, nil), (first, nil), (nil, last.addingTimeInterval(1))] as [(Date?, Date?)] {
            for dimensions in Self.groupings {
                let open = TapReportQuery(from: from, to: to, dimensions: dimensions, bucket: .day, timeZone: zone)
                let closed = TapReportQuery(from: first, to: last.addingTimeInterval(1), dimensions: dimensions,
                                            bucket: .day, timeZone: zone)
                let answer = try taps.report(open)
                #expect(answer.rows == (try taps.report(closed, source: .rawRows)).rows, "\(dimensions) \(open)")
                #expect(answer.totalTaps == 1200)
            }
        }
    }

    @Test("the rollups migration counts the taps stored before it, and later taps add to its counts")
    func backfill() throws {
        let (fixture, taps) = try Self.filledStore(count: 1500)
        try fixture.store.database.write { db in
            try db.execute("DROP TABLE tap_rollups_by_route")
            try db.execute("DELETE FROM \(Migrator.tableName) WHERE name = 'WidgetHost.taps.2-rollups'")
        }
        let reopened = TapStore(engineStore: try EngineStore(database: fixture.store.database), routes: taps.routes)
        #expect(try Migrator.appliedMigrations(in: fixture.store.database).contains("WidgetHost.taps.2-rollups"))
        #expect(try reopened.report(TapReportQuery(dimensions: [])).totalTaps == 1500)
        try reopened.record(batch: [Tap(url: "myapp://task/task-1", kind: "TaskList", family: "systemSmall",
                                        source: .widgetURL, date: Self.start.addingTimeInterval(3 * 86400))])
        #expect(try reopened.report(TapReportQuery(dimensions: [])).totalTaps == 1501)
        try Self.compare(reopened, zones: ["Australia/Lord_Howe", "Asia/Kathmandu"])
    }

    @Test("a batch refused for one tap adds nothing to the rollups; a date out of range is refused by name")
    func refusedBatchCountsNothing() throws {
        let (_, taps) = try TapIngestionTests.store()
        let good = Tap(url: "myapp://task/task-1", kind: "TaskList", family: "systemSmall", source: .widgetURL,
                       date: Self.start)
        var unknown = good
        unknown.kind = nil
        #expect(throws: TapError.widgetUnknown(url: good.url)) { try taps.record(batch: [good, unknown]) }
        var far = good
        far.date = Date(timeIntervalSince1970: .infinity)
        #expect(throws: TapError.dateOutOfRange(url: good.url, date: .infinity)) { try taps.record(batch: [good, far]) }
        #expect(try taps.report(TapReportQuery(dimensions: [.route])).rows.isEmpty)
        #expect(try taps.report(TapReportQuery(dimensions: [.route]), source: .rawRows).rows.isEmpty)
        try taps.record(good)
        #expect(try taps.report(TapReportQuery(dimensions: [.route])).rows
                == [TapReport.Row(route: "task.detail", taps: 1)])
    }
}
