import Foundation
import Testing
@testable import WidgetHost
import WidgetKit

/// `WidgetEngine.shownEntry(instanceID:at:)` answers from memory; these tests hold it to what the engine reads
/// from SQLite through the actor (`entry(instanceID:at:)`) across every kind of change.
@Suite("Shown entry from the timeline cache")
struct TimelineCacheTests {
    static func catalog(scripted provider: ScriptedProvider? = nil, greeting: GreetingProvider? = nil) -> WidgetCatalog {
        var catalog = WidgetCatalog()
        if let provider { catalog.register(kind: "Scripted", displayName: "Scripted", provider: provider) }
        if let greeting {
            catalog.register(kind: "Greeting", provider: greeting)
        }
        return catalog
    }

    /// An engine with one `Scripted` instance `w` whose timeline has entries at `offsets` seconds from now.
    static func placedScripted(offsets: [TimeInterval]) async throws -> (EngineFixture, ScriptedProvider) {
        let provider = ScriptedProvider(offsets: offsets, policy: { _ in .never })
        let fixture = try EngineFixture(catalog: catalog(scripted: provider))
        try await fixture.engine.place(kind: "Scripted", family: .systemSmall, id: "w")
        return (fixture, provider)
    }

    /// Checks that the cached answer equals the engine's stored one at `time`.
    static func expectAgreement(_ engine: WidgetEngine, _ id: String, at time: Date?,
                                sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let shown = try engine.shownEntry(instanceID: id, at: time)
        let stored = try await engine.entry(instanceID: id, at: time)
        #expect(shown.entry == stored, sourceLocation: sourceLocation)
        if let time { #expect(shown.at == time, sourceLocation: sourceLocation) }
    }

    @Test("answers what the engine reads at every instant, before, between and after the entries")
    func agreesWithStoredTimeline() async throws {
        let (fixture, provider) = try await Self.placedScripted(offsets: [0, 600, 1200])
        let start = fixture.clock.now
        for offset in stride(from: -300.0, through: 1800, by: 150) {
            try await Self.expectAgreement(fixture.engine, "w", at: start.addingTimeInterval(offset))
        }
        #expect(fixture.engine.timelineCache.cachedConfigurationCount == 1)
        let first = try fixture.engine.shownEntry(instanceID: "w", at: start)
        #expect(try fixture.engine.shownEntry(instanceID: "w", at: start).timelineID == first.timelineID)
        #expect(provider.counter.value == 1)
    }

    @Test("a reload replaces the cached timeline")
    func reloadInvalidates() async throws {
        let (fixture, _) = try await Self.placedScripted(offsets: [0, 600])
        let before = try fixture.engine.shownEntry(instanceID: "w", at: fixture.clock.now.addingTimeInterval(10_000))
        try await fixture.engine.advanceClock(by: 3000)
        try await fixture.engine.reloadTimelines(ofKind: "Scripted")
        let after = try fixture.engine.shownEntry(instanceID: "w", at: fixture.clock.now.addingTimeInterval(10_000))
        #expect(after.entry.date == fixture.clock.now.addingTimeInterval(600))
        #expect(after.entry != before.entry)
        #expect(after.timelineID != before.timelineID)
        try await Self.expectAgreement(fixture.engine, "w", at: nil)
    }

    @Test("an update moves the instance to its new configuration's timeline")
    func updateInvalidates() async throws {
        let fixture = try EngineFixture(catalog: Self.catalog(greeting: GreetingProvider()))
        try await fixture.engine.place(kind: "Greeting", family: .systemSmall, parameters: ["name": "ada"], id: "g")
        let first = try fixture.engine.shownEntry(instanceID: "g")
        #expect(first.entry.content.objectValue?["label"] == .string("hello ada "))
        try await fixture.engine.update(instanceID: "g", parameters: ["name": "grace"])
        let second = try fixture.engine.shownEntry(instanceID: "g")
        #expect(second.entry.content.objectValue?["label"] == .string("hello grace "))
        try await Self.expectAgreement(fixture.engine, "g", at: nil)
    }

    @Test("a removed instance is unknown at once, and a new one with its id gets its own timeline")
    func removeInvalidates() async throws {
        let fixture = try EngineFixture(catalog: Self.catalog(greeting: GreetingProvider()))
        try await fixture.engine.place(kind: "Greeting", family: .systemSmall, parameters: ["name": "ada"], id: "g")
        _ = try fixture.engine.shownEntry(instanceID: "g")
        try await fixture.engine.remove(instanceID: "g")
        #expect(throws: EngineError.unknownInstance("g")) { try fixture.engine.shownEntry(instanceID: "g") }
        try await fixture.engine.place(kind: "Greeting", family: .systemSmall, parameters: ["name": "lin"], id: "g")
        #expect(try fixture.engine.shownEntry(instanceID: "g").entry.content.objectValue?["label"]
            == .string("hello lin "))
    }

    @Test("without a time, the entry follows the clock as it is set and advanced")
    func clockChanges() async throws {
        let (fixture, _) = try await Self.placedScripted(offsets: [0, 600, 1200])
        let start = fixture.clock.now
        #expect(try fixture.engine.shownEntry(instanceID: "w").entry.date == start)
        try await fixture.engine.advanceClock(by: 700)
        #expect(try fixture.engine.shownEntry(instanceID: "w").entry.date == start.addingTimeInterval(600))
        try await Self.expectAgreement(fixture.engine, "w", at: nil)
        try await fixture.engine.setClock(to: start.addingTimeInterval(1300))
        let shown = try fixture.engine.shownEntry(instanceID: "w")
        #expect(shown.entry.date == start.addingTimeInterval(1200))
        #expect(shown.at == start.addingTimeInterval(1300))
    }

    @Test("a write to the engine's database by any other path invalidates too")
    func foreignWriteInvalidates() async throws {
        let (fixture, _) = try await Self.placedScripted(offsets: [0, 600])
        _ = try fixture.engine.shownEntry(instanceID: "w")
        try fixture.store.database.write { db in try db.execute("UPDATE configurations SET timeline = NULL") }
        let refusal = EngineError.timelineRejected(kind: "Scripted", reason: "no timeline has been accepted yet")
        #expect(throws: refusal) { try fixture.engine.shownEntry(instanceID: "w") }
        await #expect(throws: refusal) { try await fixture.engine.entry(instanceID: "w") }
    }

    @Test("unknown instances and configurations without a timeline answer the engine's errors")
    func errors() async throws {
        let fixture = try EngineFixture(catalog: Self.catalog(greeting: GreetingProvider()))
        #expect(throws: EngineError.unknownInstance("nope")) { try fixture.engine.shownEntry(instanceID: "nope") }
    }

    @Test("a value read under an older revision than the cache's is dropped")
    func staleValuesAreDropped() throws {
        let cache = TimelineCache()
        let stored = StoredTimeline(entries: [EntrySnapshot(date: Date(timeIntervalSince1970: 0), content: .null)],
                                    policy: .never, generatedAt: Date(timeIntervalSince1970: 0))
        let timeline = TimelineCache.Timeline(id: cache.nextTimelineID(), timeline: stored)
        let placement = TimelineCache.Placement(kind: "K", configurationKey: "c")
        cache.store(instanceID: "a", placement, timeline: timeline, revision: 1)
        #expect(cache.lookUp(instanceID: "a", revision: 1)?.1?.timeline == stored)
        #expect(cache.lookUp(instanceID: "a", revision: 2) == nil)
        cache.store(instanceID: "a", placement, timeline: timeline, revision: 1)
        #expect(cache.lookUp(instanceID: "a", revision: 2) == nil)
        cache.store(instanceID: "a", placement, timeline: nil, revision: 2)
        let cached = try #require(cache.lookUp(instanceID: "a", revision: 2))
        #expect(cached.1 == nil)
        #expect(cache.nextTimelineID() != timeline.id)
    }
}
