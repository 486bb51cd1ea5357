import DeepLinks
import Foundation
import Testing
import WidgetHost

@Suite("Tap ingestion: routing, family checks, batches, exact aggregates")
struct TapIngestionTests {
    static func store() throws -> (EngineFixture, TapStore) {
        let fixture = try EngineFixture()
        return (fixture, TapStore(engineStore: fixture.store, routes: try RouteTable.load(directory: defaultRoutesDirectory)))
    }

    /// URL shapes with the route each must reach, decided here and not by the router (nil: a broken link).
    static let shapes: [(url: @Sendable (Int) -> String, route: String?)] = [
        ({ "myapp://task/task-\($0)" }, "task.detail"),
        ({ "https://myapp.example.com/task/task-\($0)?source=lockscreen" }, "task.detail.universal"),
        ({ "myapp://project/proj-\($0 % 7)" }, "project.detail"),
        ({ "myapp://daily?image=pic\($0 % 5).jpg" }, "daily.image"),
        ({ "myapp://taks/task-\($0 % 3)" }, nil),
        ({ _ in "myapp://nowhere" }, nil),
    ]
    static let kinds = ["TaskList", "ProjectProgress", "Daily"]
    static let families = ["systemSmall", "systemMedium", "systemLarge", "accessoryCircular"]

    /// A deterministic pseudo-random generator (64-bit LCG), so the data is the same on every run.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    struct Key: Hashable {
        var route: String
        var day: String
        var family: String
        var source: String
    }

    @Test("100k taps in batches of 1000: every aggregate equals an independent count")
    func hundredThousandTaps() throws {
        let (fixture, taps) = try Self.store()
        let start = EngineFixture.date("2026-11-01T00:00:00Z")
        var generator = Generator(state: 42)
        var expected: [Key: Int] = [:]
        var expectedTokyoDays: [String: Int] = [:]
        var expectedSuspicious = 0
        var expectedLocations: [String: Int] = [:]
        let utcDay = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!).year().month().day()
        // Day labels by day number (Tokyo has no daylight saving: a fixed +9 h), formatted once per day.
        var labels: [Int: String] = [:]
        func day(_ seconds: TimeInterval) -> String {
            let number = Int((seconds / 86400).rounded(.down))
            if let label = labels[number] { return label }
            let label = Date(timeIntervalSince1970: Double(number) * 86400).formatted(utcDay)
            labels[number] = label
            return label
        }
        var batch: [Tap] = []
        for index in 0..<100_000 {
            let shape = Self.shapes[generator.next(Self.shapes.count)]
            let family = Self.families[generator.next(Self.families.count)]
            let source: TapSource = generator.next(4) == 0 ? .link : .widgetURL
            let location = TapLocation.allCases[generator.next(3)]
            let date = start.addingTimeInterval(Double(generator.next(14 * 86400)))
            let tap = Tap(url: shape.url(index), kind: Self.kinds[generator.next(3)], family: family, source: source,
                          location: location, date: date)
            batch.append(tap)
            let route = shape.route ?? TapReport.unmatchedRoute
            expected[Key(route: route, day: day(date.timeIntervalSince1970), family: family, source: source.rawValue),
                     default: 0] += 1
            expectedTokyoDays[day(date.timeIntervalSince1970 + 9 * 3600), default: 0] += 1
            expectedLocations[location.rawValue, default: 0] += 1
            if source == .link && family == "accessoryCircular" { expectedSuspicious += 1 }
            if batch.count == 1000 {
                try taps.record(batch: batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        #expect(try taps.count() == 100_000)

        let report = try taps.report(TapReportQuery(dimensions: [.route, .family, .source], bucket: .day))
        var counted: [Key: Int] = [:]
        for row in report.rows {
            counted[Key(route: row.route ?? "?", day: row.bucket ?? "?", family: row.family ?? "?",
                        source: row.source ?? "?")] = row.taps
        }
        #expect(counted == expected)
        #expect(report.totalTaps == 100_000)
        #expect(report.totalSuspicious == expectedSuspicious)

        let tokyo = try taps.report(TapReportQuery(dimensions: [], bucket: .day, timeZone: EngineFixture.tokyo))
        #expect(Dictionary(uniqueKeysWithValues: tokyo.rows.map { ($0.bucket ?? "?", $0.taps) }) == expectedTokyoDays)
        #expect(tokyo.rows.first?.bucketStart == EngineFixture.date("2026-11-01T00:00:00+09:00"))

        let locations = try taps.report(TapReportQuery(dimensions: [.location]))
        #expect(Dictionary(uniqueKeysWithValues: locations.rows.map { ($0.location ?? "?", $0.taps) }) == expectedLocations)

        // A one-week range counts only that week.
        let week = try taps.report(TapReportQuery(from: start, to: start.addingTimeInterval(7 * 86400),
                                                  dimensions: [.route], bucket: .day))
        #expect(Set(week.rows.compactMap(\.bucket)).count == 7)
        #expect(week.totalTaps == expected.filter { $0.key.day < "2026-11-08" }.values.reduce(0, +))

        // Filters keep the taps with those values: each route (the unmatched ones by their report name) with a
        // source, counted by family without grouping by the filtered columns.
        for route in Set(expected.keys.map(\.route)) {
            let filtered = try taps.report(TapReportQuery(dimensions: [.family], filters: [.route: route, .source: "link"]))
            let wanted = expected.filter { $0.key.route == route && $0.key.source == "link" }
                .reduce(into: [String: Int]()) { $0[$1.key.family, default: 0] += $1.value }
            #expect(Dictionary(uniqueKeysWithValues: filtered.rows.map { ($0.family ?? "?", $0.taps) }) == wanted, "\(route)")
        }
        #expect(expected.keys.contains { $0.route == TapReport.unmatchedRoute }, "the fixture has broken links")
        let nothing = try taps.report(TapReportQuery(filters: [.family: "systemHuge"]))
        #expect(nothing.rows.isEmpty && nothing.totalTaps == 0)
        _ = fixture
    }

    @Test("a Link tap on a family without links is kept and flagged; an unknown family too")
    func suspiciousTaps() throws {
        let (_, taps) = try Self.store()
        let now = EngineFixture.date("2026-11-25T10:00:00Z")
        let small = try taps.record(Tap(url: "myapp://task/task-1", kind: "TaskList", family: "accessoryCircular",
                                        source: .link, date: now))
        #expect(small.diagnostic == .linkOnFamilyWithoutLinks && small.route == "task.detail")
        let medium = try taps.record(Tap(url: "myapp://task/task-1", kind: "TaskList", family: "systemMedium",
                                         source: .link, date: now))
        #expect(medium.diagnostic == nil)
        let odd = try taps.record(Tap(url: "myapp://task/task-1", kind: "TaskList", family: "systemHuge",
                                      source: .widgetURL, date: now))
        #expect(odd.diagnostic == .unknownFamily)
        let report = try taps.report(TapReportQuery(dimensions: [.family]))
        #expect(report.totalTaps == 3 && report.totalSuspicious == 2)
    }

    @Test("a tap names its widget by instance; an unknown instance fails the whole batch")
    func instancesAndAtomicBatches() async throws {
        let (fixture, taps) = try Self.store()
        try await fixture.engine.place(kind: "TaskList", family: .systemLarge, id: "tasks")
        let now = fixture.clock.now
        let tap = try taps.record(Tap(url: "myapp://task/task-2", instanceID: "tasks", source: .link, date: now))
        #expect(tap.kind == "TaskList" && tap.family == "systemLarge" && tap.diagnostic == nil)
        #expect(throws: TapError.unknownInstance("gone")) {
            try taps.record(batch: [Tap(url: "myapp://task/task-2", instanceID: "tasks", source: .link, date: now),
                                    Tap(url: "myapp://task/task-2", instanceID: "gone", source: .link, date: now)])
        }
        #expect(try taps.count() == 1, "nothing of the failed batch is stored")
        let fallback = try taps.record(Tap(url: "myapp://x", instanceID: "gone", kind: "Daily", family: "systemSmall",
                                           source: .widgetURL, date: now))
        #expect(fallback.kind == "Daily" && fallback.route == nil)
    }

    @Test("day buckets follow the zone's daylight-saving changes")
    func daylightSavingBuckets() throws {
        let (_, taps) = try Self.store()
        let newYork = TimeZone(identifier: "America/New_York")!
        let times = ["2026-03-07T23:30:00-05:00", "2026-03-08T00:30:00-05:00", "2026-03-08T23:30:00-04:00",
                     "2026-03-09T00:10:00-04:00"]
        try taps.record(batch: times.map {
            Tap(url: "myapp://task/task-1", kind: "TaskList", family: "systemMedium", source: .widgetURL,
                date: EngineFixture.date($0))
        })
        let report = try taps.report(TapReportQuery(dimensions: [], bucket: .day, timeZone: newYork))
        #expect(report.rows.map(\.bucket) == ["2026-03-07", "2026-03-08", "2026-03-09"])
        #expect(report.rows.map(\.taps) == [1, 2, 1])
        #expect(report.rows[1].bucketStart == EngineFixture.date("2026-03-08T00:00:00-05:00"))
        #expect(report.rows[2].bucketStart == EngineFixture.date("2026-03-09T00:00:00-04:00"))
    }
}
