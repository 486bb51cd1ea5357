import AppIntents
import Foundation
import SharedState
import Synchronization
import Testing
import WidgetHost
import WidgetKit

/// A configuration intent numbering the configurations of the group-commit tests.
struct BatchSeriesIntent: WidgetConfigurationIntent {
    static let title: LocalizedStringResource = "Batch series"
    @Parameter(title: "Series", default: 0) var series: Int
    init() {}
}

/// What the batch provider does on its next runs: succeed, or (once `misbehaving` is set) return an empty
/// timeline for series ≡ 7 (mod 50) and hang for series 13.
final class BatchScript: Sendable {
    let misbehaving = Mutex(false)
    let hangsEnded = Mutex(0)
    /// When set, series 21's run waits (up to 5 s) for `placed` after setting `waiting`.
    let pauseSeries21 = Mutex(false)
    let waiting = Mutex(false)
    let placed = Mutex(false)
}

struct BatchSeriesProvider: AppIntentTimelineProvider, Sendable {
    let script: BatchScript

    func placeholder(in context: Context) -> CountEntry { CountEntry(date: .distantPast, label: "placeholder") }

    func snapshot(for configuration: BatchSeriesIntent, in context: Context) async -> CountEntry {
        placeholder(in: context)
    }

    func timeline(for configuration: BatchSeriesIntent, in context: Context) async -> Timeline<CountEntry> {
        let now = HostEnvironment.current?.now ?? Date()
        let run = script.misbehaving.withLock { $0 } ? "second" : "first"
        if configuration.series == 21 && script.pauseSeries21.withLock({ $0 }) {
            script.waiting.withLock { $0 = true }
            for _ in 0..<1000 where !script.placed.withLock({ $0 }) {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        if run == "second" && configuration.series == 13 {
            // Hangs until cancelled: the engine's time limit must end the wait.
            try? await Task.sleep(for: .seconds(3600))
            script.hangsEnded.withLock { $0 += 1 }
        }
        if run == "second" && configuration.series % 50 == 7 {
            return Timeline(entries: [], policy: .atEnd)
        }
        return Timeline(entries: [CountEntry(date: now, label: "\(run) \(configuration.series)")],
                        policy: .after(now.addingTimeInterval(3600 + Double(configuration.series))))
    }
}

@Suite("Reloads in group commit: many configurations per transaction, each whole, a provider time limit")
struct ReloadGroupCommitTests {
    static let configurations = 300

    static func fixture(_ script: BatchScript, timeLimit: Duration = .seconds(2)) async throws
        -> (WidgetEngine, EngineStore) {
        var catalog = WidgetCatalog()
        catalog.register(kind: "Batch", provider: BatchSeriesProvider(script: script))
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("widgethost-tests-\(UUID().uuidString)", isDirectory: true)
        let store = try EngineStore(directory: directory)
        let engine = WidgetEngine(catalog: catalog, store: store,
                                  clock: VirtualClock(start: EngineFixture.date("2026-11-25T10:00:00Z")),
                                  providerTimeLimit: timeLimit)
        // Two instances per configuration.
        try await engine.place((0..<(2 * configurations)).map { index in
            WidgetPlacement(id: "w\(index)", kind: "Batch", family: .systemSmall,
                            parameters: ["series": .int(index % configurations)])
        })
        return (engine, store)
    }

    static func reloadLogCount(_ store: EngineStore) throws -> Int {
        try store.database.read { db in try db.scalar("SELECT count(*) FROM reload_log", as: Int.self) ?? 0 }
    }

    @Test("300 configurations take 3 durable transactions; every event's record is committed when it is emitted")
    func batchesPerTransaction() async throws {
        let (engine, store) = try await Self.fixture(BatchScript())
        let before = try Self.reloadLogCount(store)
        let notCommitted = Mutex<[String]>([])
        engine.events.observe { event in
            guard case .providerRan(let record) = event else { return }
            let stored = (try? store.database.read { db in
                try db.scalar("SELECT count(*) FROM reload_log WHERE configuration_key = ? AND reason = ?",
                              [.text(record.configurationKey), .text(record.reason.rawValue)], as: Int.self)
            }) ?? 0
            if stored != 1 { notCommitted.withLock { $0.append(record.configurationKey) } }
        }
        let revision = store.revision
        let records = try await engine.reloadAllTimelines()
        #expect(records.count == Self.configurations)
        #expect(records.allSatisfy { $0.outcome == "accepted" && $0.instanceIDs.count == 2 })
        #expect(store.revision - revision == 3, "ceil(300 / \(WidgetEngine.reloadBatchSize)) write transactions")
        #expect(try Self.reloadLogCount(store) == before + Self.configurations)
        #expect(notCommitted.withLock { $0 }.count == 0)
        let state = try await engine.state(ofInstance: "w301")
        #expect(state.budget.used == 1 && state.providerRuns == 2)
    }

    @Test("a provider that hangs or returns nothing fails only its own configuration; the rest are stored")
    func misbehavingProvidersStayAlone() async throws {
        let script = BatchScript()
        let (engine, _) = try await Self.fixture(script)
        script.misbehaving.withLock { $0 = true }
        let clock = ContinuousClock()
        let started = clock.now
        let records = try await engine.reloadAllTimelines()
        #expect(clock.now - started < .seconds(60), "the hanging provider was not waited for")
        let failed = Set(records.filter { $0.outcome != "accepted" }.map(\.configurationKey))
        #expect(records.count == Self.configurations && failed.count == 6 + 1)
        let hung = try #require(records.first { $0.outcome.contains("time limit") })
        #expect(hung.outcome.hasPrefix("rejected: the provider did not finish within its time limit"))
        for index in [7, 13, 57, 257] {
            let state = try await engine.state(ofInstance: "w\(index)")
            #expect(state.timeline?.entries.first?.content.objectValue?["label"] == .string("first \(index)"),
                    "the previous timeline stays for a refused run")
            #expect(state.nextReload?.dueAt == EngineFixture.date("2026-11-25T10:15:00Z"), "retry after 15 min")
        }
        for index in [8, 14, 299] {
            let state = try await engine.state(ofInstance: "w\(index + Self.configurations)")
            #expect(state.timeline?.entries.first?.content.objectValue?["label"] == .string("second \(index)"))
        }
        for _ in 0..<500 where script.hangsEnded.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(script.hangsEnded.withLock { $0 } == 1, "the hanging run's task was cancelled, not left for an hour")
    }

    @Test("an instance placed while its configuration's provider runs is served by the run and shares its charge")
    func instancePlacedDuringTheRun() async throws {
        let script = BatchScript()
        let (engine, _) = try await Self.fixture(script, timeLimit: .seconds(30))
        script.pauseSeries21.withLock { $0 = true }
        let reload = Task { try await engine.reloadAllTimelines() }
        for _ in 0..<1000 where !script.waiting.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        try await engine.place([WidgetPlacement(id: "late", kind: "Batch", family: .systemSmall,
                                                parameters: ["series": .int(21)])])
        script.placed.withLock { $0 = true }
        let records = try await reload.value
        let record = try #require(records.first { $0.instanceIDs.contains("w21") })
        #expect(Set(record.instanceIDs) == ["w21", "w321", "late"] && record.chargedInstanceIDs == record.instanceIDs)
        let late = try await engine.state(ofInstance: "late")
        let sibling = try await engine.state(ofInstance: "w321")
        #expect(late.budget.used == 1 && late.budget == sibling.budget, "one ledger for the configuration")
        #expect(late.nextReload != nil && late.nextReload == sibling.nextReload)
    }

    @Test("a configuration whose writes fail is rolled back alone; the others commit and the failure is thrown")
    func savepointPerConfiguration() async throws {
        let (engine, store) = try await Self.fixture(BatchScript())
        let state = try await engine.state(ofInstance: "w5")
        let key = state.instance.configurationKey
        try store.database.write { db in
            try db.execute("""
                CREATE TRIGGER refuse_one BEFORE UPDATE OF provider_runs ON configurations
                WHEN NEW.key = '\(key.replacingOccurrences(of: "'", with: "''"))'
                BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                """)
        }
        let before = try Self.reloadLogCount(store)
        await #expect(throws: SQLiteError.self) { try await engine.reloadAllTimelines() }
        let after = try Self.reloadLogCount(store)
        #expect(after == before + Self.configurations - 1)
        let refused = try await engine.state(ofInstance: "w5")
        #expect(refused.providerRuns == 1 && refused.budget.used == 0, "nothing of the refused configuration stayed")
        #expect(refused.nextReload == state.nextReload)
        let other = try await engine.state(ofInstance: "w6")
        #expect(other.providerRuns == 2 && other.budget.used == 1)
    }
}
