import Foundation
import Testing
import WidgetHost
import WidgetKit

@Suite("Timelines: validation, entry at T, doctor")
struct TimelineDoctorTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func entries(_ offsets: [TimeInterval]) -> [EntrySnapshot] {
        offsets.enumerated().map { EntrySnapshot(date: t0.addingTimeInterval($1), content: .int($0)) }
    }

    @Test("empty timelines and non-finite dates are rejected")
    func rejections() {
        #expect(throws: TimelineValidator.Rejection.empty) {
            try TimelineValidator.validate(entries: [], policy: .atEnd, generatedAt: Self.t0)
        }
        #expect(throws: TimelineValidator.Rejection.nonFiniteDate(entryIndex: 1)) {
            try TimelineValidator.validate(
                entries: Self.entries([0]) + [EntrySnapshot(date: Date(timeIntervalSinceReferenceDate: .nan),
                                                            content: .null)],
                policy: .atEnd, generatedAt: Self.t0)
        }
        #expect(throws: TimelineValidator.Rejection.nonFiniteDate(entryIndex: nil)) {
            try TimelineValidator.validate(entries: Self.entries([0]),
                                           policy: .after(Date(timeIntervalSinceReferenceDate: .infinity)),
                                           generatedAt: Self.t0)
        }
    }

    @Test("out-of-order entries are sorted stably and flagged")
    func sorting() throws {
        let outcome = try TimelineValidator.validate(entries: Self.entries([600, 0, 600, 300]), policy: .atEnd,
                                                     generatedAt: Self.t0)
        #expect(outcome.wasReordered)
        #expect(outcome.timeline.entries.map(\.content) == [.int(1), .int(3), .int(0), .int(2)])
        let findings = TimelineDoctor.diagnose(outcome.timeline, wasReordered: true, budget: .default, now: Self.t0)
        #expect(findings.contains { $0.code == .entriesOutOfOrder })
        // Equal dates are in order; a non-finite date after entries out of order is refused, not sorted.
        let inOrder = try TimelineValidator.validate(entries: Self.entries([0, 0, 300, 300]), policy: .atEnd,
                                                     generatedAt: Self.t0)
        #expect(!inOrder.wasReordered)
        #expect(inOrder.timeline.entries.map(\.content) == [.int(0), .int(1), .int(2), .int(3)])
        #expect(throws: TimelineValidator.Rejection.nonFiniteDate(entryIndex: 2)) {
            try TimelineValidator.validate(
                entries: Self.entries([600, 0]) + [EntrySnapshot(date: Date(timeIntervalSinceReferenceDate: -.infinity),
                                                                 content: .null)],
                policy: .atEnd, generatedAt: Self.t0)
        }
    }

    @Test("the entry shown at T is the latest dated at or before T; before the first, the first",
          arguments: [(-100.0, 0), (0.0, 0), (299.0, 0), (300.0, 1), (301.0, 1), (900.0, 2), (99_999.0, 2)])
    func entryAt(offset: TimeInterval, expected: Int) throws {
        let timeline = try TimelineValidator.validate(entries: Self.entries([0, 300, 900]), policy: .atEnd,
                                                      generatedAt: Self.t0).timeline
        #expect(timeline.entry(at: Self.t0.addingTimeInterval(offset)).index == expected)
    }

    @Test("a .never timeline is flagged as freezing once its last entry has passed")
    func freezes() throws {
        let timeline = StoredTimeline(entries: Self.entries([0, 3600]), policy: .never, generatedAt: Self.t0)
        let early = TimelineDoctor.diagnose(timeline, wasReordered: false, budget: .default, now: Self.t0)
        #expect(early.first { $0.code == .freezesAfter }?.severity == .info)
        let late = TimelineDoctor.diagnose(timeline, wasReordered: false, budget: .default,
                                           now: Self.t0.addingTimeInterval(7200))
        let finding = try #require(late.first { $0.code == .freezesAfter })
        #expect(finding.severity == .warning)
        #expect(finding.date == Self.t0.addingTimeInterval(3600))
    }

    @Test("reloading every 5 minutes exceeds a 48-a-day budget; every 30 minutes does not")
    func budgetCadence() {
        let fast = StoredTimeline(entries: Self.entries([0]), policy: .after(Self.t0.addingTimeInterval(300)),
                                  generatedAt: Self.t0)
        #expect(TimelineDoctor.diagnose(fast, wasReordered: false, budget: .default, now: Self.t0)
            .contains { $0.code == .reloadsExceedBudget })
        let steady = StoredTimeline(entries: Self.entries([0]), policy: .after(Self.t0.addingTimeInterval(1800)),
                                    generatedAt: Self.t0)
        #expect(!TimelineDoctor.diagnose(steady, wasReordered: false, budget: .default, now: Self.t0)
            .contains { $0.code == .reloadsExceedBudget })
    }

    @Test("single entry with .atEnd, and entries closer than five minutes, are flagged")
    func shapes() {
        let single = StoredTimeline(entries: Self.entries([0]), policy: .atEnd, generatedAt: Self.t0)
        #expect(TimelineDoctor.diagnose(single, wasReordered: false, budget: .default, now: Self.t0)
            .contains { $0.code == .singleEntryAtEnd })
        let close = StoredTimeline(entries: Self.entries([0, 3600, 3660]), policy: .never, generatedAt: Self.t0)
        let findings = TimelineDoctor.diagnose(close, wasReordered: false, budget: .default, now: Self.t0)
        #expect(findings.first { $0.code == .entriesTooClose }?.date == Self.t0.addingTimeInterval(3660))
        let spaced = StoredTimeline(entries: Self.entries([0, 300, 600]), policy: .never, generatedAt: Self.t0)
        #expect(!TimelineDoctor.diagnose(spaced, wasReordered: false, budget: .default, now: Self.t0)
            .contains { $0.code == .entriesTooClose })
    }

    @Test("a provider's empty timeline is refused, the previous one stays, and a retry is scheduled")
    func rejectedTimelineKeepsPrevious() async throws {
        let toggle = EmptyAfterFirst()
        var catalog = WidgetCatalog()
        catalog.register(kind: "Flaky", displayName: "Flaky", provider: toggle)
        let fixture = try EngineFixture(catalog: catalog)
        let placed = try await fixture.engine.place(kind: "Flaky", family: .systemSmall, id: "f")
        let runs = try await fixture.engine.reloadTimelines(ofKind: "Flaky")
        #expect(runs.first?.outcome.hasPrefix("rejected") == true)
        let state = try await fixture.engine.state(ofInstance: "f")
        #expect(state.timeline == placed.timeline)
        #expect(state.diagnostics.first?.code == .timelineRejected)
        #expect(state.nextReload?.dueAt == fixture.clock.now.addingTimeInterval(WidgetEngine.retryInterval))
    }

    @Test("placeholder and snapshot never run the timeline path")
    func placeholderAndSnapshot() async throws {
        let provider = ScriptedProvider(offsets: [0], policy: { _ in .never })
        var catalog = WidgetCatalog()
        catalog.register(kind: "Scripted", displayName: "Scripted", provider: provider)
        let fixture = try EngineFixture(catalog: catalog)
        let placeholder = try await fixture.engine.placeholder(kind: "Scripted", family: .systemSmall)
        let snapshot = try await fixture.engine.snapshot(kind: "Scripted", family: .systemSmall)
        #expect(placeholder.content.objectValue?["label"] == .string("placeholder"))
        #expect(snapshot.content.objectValue?["label"] == .string("snapshot-preview"))
        #expect(provider.counter.value == 0)
        #expect(try await fixture.engine.instances().isEmpty)
    }
}

/// Returns one entry the first time and an empty timeline after.
struct EmptyAfterFirst: TimelineProvider, Sendable {
    let counter = RunCounter()
    func placeholder(in context: Context) -> CountEntry { CountEntry(date: .distantPast, label: "p") }
    func getSnapshot(in context: Context, completion: @escaping (CountEntry) -> Void) {
        completion(placeholder(in: context))
    }
    func getTimeline(in context: Context, completion: @escaping (Timeline<CountEntry>) -> Void) {
        counter.increment()
        let now = HostEnvironment.current?.now ?? Date()
        completion(Timeline(entries: counter.value == 1 ? [CountEntry(date: now, label: "first")] : [],
                            policy: .never))
    }
}
