import AppIntents
import Foundation
import SharedState
import Synchronization
import Testing
import WidgetHost
import WidgetKit

/// What the pipeline tests' provider does: label its entries with the round, hang for one series, ask for every
/// timeline to reload from one series.
final class PipelineScript: Sendable {
    let round = Mutex("first")
    let hangSeries = Mutex<Int?>(nil)
    let hangsEnded = Mutex(0)
    let reloadAllFromSeries = Mutex<Int?>(nil)
    /// The series run, in order.
    let ran = Mutex<[Int]>([])
}

struct PipelineSeriesProvider: AppIntentTimelineProvider, Sendable {
    let script: PipelineScript

    func placeholder(in context: Context) -> CountEntry { CountEntry(date: .distantPast, label: "placeholder") }

    func snapshot(for configuration: BatchSeriesIntent, in context: Context) async -> CountEntry {
        placeholder(in: context)
    }

    func timeline(for configuration: BatchSeriesIntent, in context: Context) async -> Timeline<CountEntry> {
        let now = HostEnvironment.current?.now ?? Date()
        let series = configuration.series
        script.ran.withLock { $0.append(series) }
        if script.hangSeries.withLock({ $0 }) == series {
            // Hangs until cancelled: the engine's time limit must end the wait.
            try? await Task.sleep(for: .seconds(3600))
            script.hangsEnded.withLock { $0 += 1 }
        }
        if script.reloadAllFromSeries.withLock({ $0 }) == series { WidgetCenter.shared.reloadAllTimelines() }
        let round = script.round.withLock { $0 }
        return Timeline(entries: [CountEntry(date: now, label: "\(round) \(series)")],
                        policy: .after(now.addingTimeInterval(3600 + Double(series))))
    }
}

@Suite("Reloads pipelined: a batch's providers run while the previous batch commits, every promise kept")
struct ReloadPipelineTests {
    static let configurations = 300
    static let start = EngineFixture.date("2026-11-25T10:00:00Z")

    /// An engine on disk with one instance per series (`w0`…`w299`), and the series in the order the reload takes
    /// them (configuration key order), batch by batch.
    static func fixture(_ script: PipelineScript, timeLimit: Duration = .seconds(30)) async throws
        -> (engine: WidgetEngine, store: EngineStore, batches: [[Int]]) {
        var catalog = WidgetCatalog()
        catalog.register(kind: "Pipeline", provider: PipelineSeriesProvider(script: script))
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("widgethost-tests-\(UUID().uuidString)", isDirectory: true)
        let store = try EngineStore(directory: directory)
        let engine = WidgetEngine(catalog: catalog, store: store, clock: VirtualClock(start: start),
                                  providerTimeLimit: timeLimit)
        try await engine.place((0..<configurations).map { index in
            WidgetPlacement(id: "w\(index)", kind: "Pipeline", family: .systemSmall, parameters: ["series": .int(index)])
        })
        let order = try store.database.read { db in
            try db.query("SELECT json_extract(parameters, '$.series') AS series FROM configurations ORDER BY key")
                .compactMap { $0.int("series") }
        }
        #expect(order.count == configurations)
        let size = WidgetEngine.reloadBatchSize
        let batches = stride(from: 0, to: order.count, by: size).map { Array(order[$0..<min($0 + size, order.count)]) }
        #expect(batches.count == 3, "300 configurations make three batches")
        return (engine, store, batches)
    }

    static func reloadLogCount(_ store: EngineStore) throws -> Int {
        try store.database.read { db in try db.scalar("SELECT count(*) FROM reload_log", as: Int.self) ?? 0 }
    }

    static func label(_ engine: WidgetEngine, series: Int) async throws -> String? {
        let state = try await engine.state(ofInstance: "w\(series)")
        guard case .string(let label)? = state.timeline?.entries.first?.content.objectValue?["label"] else { return nil }
        return label
    }

    static func series(ofKey key: String, in store: EngineStore) throws -> Int? {
        try store.database.read { db in
            try db.queryOne("SELECT json_extract(parameters, '$.series') AS series FROM configurations WHERE key = ?",
                            [.text(key)])?.int("series")
        }
    }

    @Test("records and events come batch after batch in the order asked, each event after its commit")
    func recordsAndEventsInOrder() async throws {
        let script = PipelineScript()
        let (engine, store, batches) = try await Self.fixture(script)
        let emitted = Mutex<[String]>([])
        let notCommitted = Mutex(0)
        engine.events.observe { event in
            guard case .providerRan(let record) = event else { return }
            let stored = (try? store.database.read { db in
                try db.scalar("SELECT count(*) FROM reload_log WHERE configuration_key = ? AND reason = ?",
                              [.text(record.configurationKey), .text(record.reason.rawValue)], as: Int.self)
            }) ?? 0
            if stored != 1 { notCommitted.withLock { $0 += 1 } }
            emitted.withLock { $0.append(record.configurationKey) }
        }
        script.ran.withLock { $0 = [] }
        let records = try await engine.reloadAllTimelines()
        let recordSeries = try records.map { try Self.series(ofKey: $0.configurationKey, in: store) }
        #expect(recordSeries == batches.flatMap { $0 }, "records in key order, batch after batch")
        #expect(emitted.withLock { $0 } == records.map(\.configurationKey), "events in the records' order")
        #expect(notCommitted.withLock { $0 } == 0, "no event before its batch's commit")
        #expect(script.ran.withLock { $0 } == batches.flatMap { $0 }, "providers run in the same order")
        #expect(records.allSatisfy { $0.outcome == "accepted" })
    }

    @Test("a configuration whose writes fail in the middle batch is rolled back alone; later batches are stored whole")
    func savepointFailureInTheMiddleBatch() async throws {
        let script = PipelineScript()
        let (engine, store, batches) = try await Self.fixture(script)
        let refused = batches[1][5]
        let key = try await engine.state(ofInstance: "w\(refused)").instance.configurationKey
        try store.database.write { db in
            try db.execute("""
                CREATE TRIGGER refuse_one BEFORE UPDATE OF provider_runs ON configurations
                WHEN NEW.key = '\(key.replacingOccurrences(of: "'", with: "''"))'
                BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                """)
        }
        let before = try Self.reloadLogCount(store)
        script.round.withLock { $0 = "second" }
        await #expect(throws: SQLiteError.self) { try await engine.reloadAllTimelines() }
        #expect(try Self.reloadLogCount(store) == before + Self.configurations - 1)
        let state = try await engine.state(ofInstance: "w\(refused)")
        #expect(state.providerRuns == 1 && state.budget.used == 0, "nothing of the refused configuration stayed")
        #expect(try await Self.label(engine, series: refused) == "first \(refused)")
        for series in [batches[1][4], batches[1][6], batches[2][0], batches[2].last!] {
            let other = try await engine.state(ofInstance: "w\(series)")
            #expect(other.providerRuns == 2 && other.budget.used == 1)
            #expect(try await Self.label(engine, series: series) == "second \(series)")
        }
    }

    @Test("a commit that fails as a whole stops the reload there: earlier batches stay, the one computed meanwhile is dropped")
    func commitFailureInTheMiddleBatch() async throws {
        let script = PipelineScript()
        let (engine, store, batches) = try await Self.fixture(script)
        let trigger = batches[1][0]
        let key = try await engine.state(ofInstance: "w\(trigger)").instance.configurationKey
        // A deferred foreign key broken inside the savepoint: the savepoint is released, and `COMMIT` fails.
        try store.database.write { db in
            try db.execute("CREATE TABLE test_parent(id TEXT PRIMARY KEY)")
            try db.execute("""
                CREATE TABLE test_child(parent TEXT REFERENCES test_parent(id) DEFERRABLE INITIALLY DEFERRED)
                """)
            try db.execute("""
                CREATE TRIGGER break_commit AFTER UPDATE OF provider_runs ON configurations
                WHEN NEW.key = '\(key.replacingOccurrences(of: "'", with: "''"))'
                BEGIN INSERT INTO test_child(parent) VALUES ('missing'); END
                """)
        }
        let before = try Self.reloadLogCount(store)
        let emitted = Mutex<[String]>([])
        engine.events.observe { event in
            if case .providerRan(let record) = event { emitted.withLock { $0.append(record.configurationKey) } }
        }
        script.round.withLock { $0 = "second" }
        script.ran.withLock { $0 = [] }
        await #expect(throws: SQLiteError.self) { try await engine.reloadAllTimelines() }
        #expect(try Self.reloadLogCount(store) == before + batches[0].count, "only the first batch was stored")
        let emittedSeries = try emitted.withLock { $0 }.map { try Self.series(ofKey: $0, in: store) }
        #expect(emittedSeries == batches[0], "events of the first batch only, in order")
        #expect(script.ran.withLock { $0 } == batches[0] + batches[1] + batches[2],
                "the third batch's providers ran while the second committed")
        for series in [batches[0][0], batches[0].last!] {
            #expect(try await Self.label(engine, series: series) == "second \(series)")
        }
        for series in [batches[1][0], batches[1][1], batches[2][0], batches[2].last!] {
            let state = try await engine.state(ofInstance: "w\(series)")
            #expect(state.providerRuns == 1 && state.budget.used == 0, "series \(series) was not stored")
            #expect(try await Self.label(engine, series: series) == "first \(series)")
        }
        // Once the cause is gone, the next reload stores every batch.
        try store.database.write { db in try db.execute("DROP TRIGGER break_commit") }
        script.round.withLock { $0 = "third" }
        let records = try await engine.reloadAllTimelines()
        #expect(records.count == Self.configurations && records.allSatisfy { $0.outcome == "accepted" })
        #expect(try await Self.label(engine, series: batches[2].last!) == "third \(batches[2].last!)")
    }

    @Test("a provider that hangs at the start of the second batch, while the first commits, fails only itself")
    func hangWhileThePreviousBatchCommits() async throws {
        let script = PipelineScript()
        let (engine, _, batches) = try await Self.fixture(script, timeLimit: .seconds(2))
        let hung = batches[1][0]
        script.hangSeries.withLock { $0 = hung }
        script.round.withLock { $0 = "second" }
        let records = try await engine.reloadAllTimelines()
        #expect(records.count == Self.configurations)
        let refused = records.filter { $0.outcome != "accepted" }
        #expect(refused.count == 1)
        #expect(refused.first?.outcome.hasPrefix("rejected: the provider did not finish within its time limit") == true)
        #expect(try await Self.label(engine, series: hung) == "first \(hung)", "the previous timeline stays")
        #expect(try await engine.state(ofInstance: "w\(hung)").nextReload?.dueAt
                == Self.start.addingTimeInterval(WidgetEngine.retryInterval))
        for series in [batches[0].last!, batches[1][1], batches[2][0]] {
            #expect(try await Self.label(engine, series: series) == "second \(series)")
        }
        for _ in 0..<500 where script.hangsEnded.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(script.hangsEnded.withLock { $0 } == 1, "the hung run's task was cancelled")
    }

    @Test("a reload a provider asks for while the previous batch commits is applied after that commit, not lost")
    func reloadRequestedDuringACommit() async throws {
        let script = PipelineScript()
        let (engine, _, batches) = try await Self.fixture(script)
        script.reloadAllFromSeries.withLock { $0 = batches[1][0] }
        try await engine.reloadAllTimelines()
        for series in [batches[0][0], batches[0][64], batches[0].last!] {
            let next = try await engine.state(ofInstance: "w\(series)").nextReload
            #expect(next?.dueAt == Self.start && next?.reason == .allReload,
                    "a batch committed before the request is due now")
        }
        for series in [batches[1][0], batches[2][0]] {
            let next = try await engine.state(ofInstance: "w\(series)").nextReload
            #expect(next?.dueAt == Self.start.addingTimeInterval(3600 + Double(series)) && next?.reason == .scheduled,
                    "a run stored after the request keeps its own next reload")
        }
    }
}
