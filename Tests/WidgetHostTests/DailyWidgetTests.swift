import DemoWidgets
import Foundation
import Testing
import WidgetHost

@Suite("Daily widget on a virtual clock")
struct DailyWidgetTests {
    @Test("switches at the next local midnight, also after the store is reopened")
    func switchesAtMidnightAcrossRestart() async throws {
        let fixture = try EngineFixture()
        let placed = try await fixture.engine.place(kind: DemoCatalog.Kind.daily, family: .systemSmall, id: "daily-1")
        #expect(placed.currentEntry?.content.objectValue?["day"] == .string("2026-11-25"))
        #expect(placed.currentEntry?.content.objectValue?["title"] == .string(try Self.fixtureTitle("2026-11-25")))
        let midnight = EngineFixture.date("2026-11-26T00:00:00+09:00")
        #expect(placed.nextReload?.dueAt == midnight)

        // One second before midnight: still the 25th, and nothing has been rebuilt.
        let before = try await fixture.engine.advanceClock(to: midnight.addingTimeInterval(-1))
        #expect(before.isEmpty)
        #expect(try await fixture.engine.entry(instanceID: "daily-1").content.objectValue?["day"] == .string("2026-11-25"))

        let runs = try await fixture.engine.advanceClock(to: midnight.addingTimeInterval(1))
        #expect(runs.count == 1)
        #expect(runs.first?.ranAt == midnight)
        let after = try await fixture.engine.state(ofInstance: "daily-1")
        #expect(after.currentEntry?.content.objectValue?["day"] == .string("2026-11-26"))
        #expect(after.currentEntry?.content.objectValue?["title"] == .string(try Self.fixtureTitle("2026-11-26")))
        #expect(after.nextReload?.dueAt == EngineFixture.date("2026-11-27T00:00:00+09:00"))

        // A new process on the same directory: the virtual time and the schedule are where they were.
        let restarted = try fixture.reopened()
        #expect(restarted.clock.now == midnight.addingTimeInterval(1))
        let resumed = try await restarted.engine.state(ofInstance: "daily-1")
        #expect(resumed.nextReload?.dueAt == EngineFixture.date("2026-11-27T00:00:00+09:00"))
        let next = try await restarted.engine.advanceClock(to: EngineFixture.date("2026-11-27T08:00:00+09:00"))
        #expect(next.count == 1)
        #expect(try await restarted.engine.entry(instanceID: "daily-1").content.objectValue?["day"]
                == .string("2026-11-27"))
    }

    static func fixtureTitle(_ day: String) throws -> String {
        let fixtures = try Fixtures(directory: Fixtures.bundledDirectory)
        return try #require(fixtures.daily.first { $0.day == day }?.title)
    }

    @Test("midnight is the device's: Tokyo and New York switch at different instants")
    func midnightFollowsTimeZone() async throws {
        let start = EngineFixture.date("2026-11-25T12:00:00Z")
        let tokyo = try EngineFixture(start: start, timeZone: EngineFixture.tokyo)
        let newYork = try EngineFixture(start: start, timeZone: TimeZone(identifier: "America/New_York")!)
        let inTokyo = try await tokyo.engine.place(kind: DemoCatalog.Kind.daily, family: .systemSmall)
        let inNewYork = try await newYork.engine.place(kind: DemoCatalog.Kind.daily, family: .systemSmall)
        #expect(inTokyo.nextReload?.dueAt == EngineFixture.date("2026-11-26T00:00:00+09:00"))
        #expect(inNewYork.nextReload?.dueAt == EngineFixture.date("2026-11-26T00:00:00-05:00"))
        #expect(inTokyo.currentEntry?.content.objectValue?["day"] == .string("2026-11-25"))
        #expect(inNewYork.currentEntry?.content.objectValue?["day"] == .string("2026-11-25"))
    }

    @Test("next midnight across a daylight-saving change")
    func nextMidnightAcrossDST() {
        let calendar = Calendar.device(in: TimeZone(identifier: "America/New_York")!)
        // 2026-11-01 is the day New York falls back: that day is 25 hours long.
        let morning = EngineFixture.date("2026-11-01T08:00:00-05:00")
        #expect(calendar.nextMidnight(after: morning) == EngineFixture.date("2026-11-02T00:00:00-05:00"))
        let justBefore = EngineFixture.date("2026-11-01T23:59:59-05:00")
        #expect(calendar.nextMidnight(after: justBefore) == EngineFixture.date("2026-11-02T00:00:00-05:00"))
    }
}
