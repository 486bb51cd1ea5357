import Foundation
import JSON
import SharedState
import Testing
import WidgetKit
@testable import WidgetHost

@Suite("A reload batch in fewer statements: the read as the per-key reads, each run's row written in one UPDATE")
struct ReloadBatchReadTests {
    /// Five configurations charged twice, on a store on disk; the clock an hour after the second reload.
    static func fixture() async throws -> (WidgetEngine, EngineStore, VirtualClock) {
        var catalog = WidgetCatalog()
        catalog.register(kind: "Batch", provider: BatchSeriesProvider(script: BatchScript()))
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("widgethost-tests-\(UUID().uuidString)", isDirectory: true)
        let store = try EngineStore(directory: directory)
        let clock = VirtualClock(start: EngineFixture.date("2026-11-25T10:00:00Z"))
        let engine = WidgetEngine(catalog: catalog, store: store, clock: clock)
        try await engine.place((0..<5).map { index in
            WidgetPlacement(id: "w\(index)", kind: "Batch", family: .systemSmall, parameters: ["series": .int(index)])
        })
        for _ in 0..<2 {
            try await engine.reloadAllTimelines()
            _ = clock.advance(by: 3600)
        }
        return (engine, store, clock)
    }

    static func keys(_ store: EngineStore) throws -> [String] {
        try store.read { db in try store.configurationKeys(where: "1 = 1", [], db) }
    }

    @Test("the same configurations and ledgers as the per-key reads, odd charges included; missing keys absent")
    func sameAsOneByOne() async throws {
        let (_, store, clock) = try await Self.fixture()
        let keys = try Self.keys(store)
        let now = clock.now
        let policy = ReloadBudgetPolicy.default
        // Charges as other writers could leave them: an integer time, one outside the window, one ahead of now,
        // members that are not numbers.
        let inWindow = Int64(now.timeIntervalSince1970) - 600
        let outside = now.addingTimeInterval(-policy.window - 1).timeIntervalSince1970
        let ahead = now.addingTimeInterval(60).timeIntervalSince1970
        try store.write { db in
            try db.execute("UPDATE configurations SET charges = ? WHERE key = ?", [
                .text("[\(inWindow),\(outside),\(ahead),\"text\",null,true,[1],{\"a\":1}]"), .text(keys[1])])
            try db.execute("UPDATE configurations SET charges = '[]' WHERE key = ?", [.text(keys[2])])
        }
        let requested = keys + [#"["Batch","systemSmall",{"series":99}]"#, keys[0]]
        let batch = try store.read { db in try store.batchToRun(keys: requested, ledgerPolicy: policy, now: now, db) }
        #expect(Set(batch.configurations.keys) == Set(keys) && Set(batch.ledgers.keys) == Set(keys))
        for key in keys {
            let (configuration, ledger) = try store.read { db in
                (try store.configurationToRun(key: key, db), try store.ledger(configurationKey: key, policy: policy,
                                                                             now: now, db))
            }
            let read = try #require(batch.configurations[key])
            #expect(read.kind == configuration?.kind && read.family == configuration?.family)
            #expect(read.parameters == configuration?.parameters)
            #expect(read.resolutionDiagnostics == configuration?.resolutionDiagnostics)
            #expect(batch.ledgers[key] == ledger)
        }
        #expect(batch.ledgers[keys[0]]?.charges.count == 2)
        #expect(batch.ledgers[keys[1]]?.charges == [Date(timeIntervalSince1970: TimeInterval(inWindow))])
        #expect(batch.ledgers[keys[2]]?.charges == [])

        let exempt = try store.read { db in try store.batchToRun(keys: keys, ledgerPolicy: nil, now: now, db) }
        #expect(exempt.configurations.count == keys.count && exempt.ledgers.isEmpty)
    }

    @Test("charges that are not a JSON array are refused, naming the column")
    func corruptCharges() async throws {
        let (_, store, clock) = try await Self.fixture()
        let keys = try Self.keys(store)
        for corrupt in ["[1,", "{\"a\":1}", "", "[1]\u{0}"] {
            try store.write { db in
                try db.execute("UPDATE configurations SET charges = ? WHERE key = ?", [.text(corrupt), .text(keys[3])])
            }
            let error = #expect(throws: EngineError.self) {
                try store.read { db in
                    try store.batchToRun(keys: keys, ledgerPolicy: .default, now: clock.now, db)
                }
            }
            guard case .corruptRow(let column, _)? = error else {
                Issue.record("expected corruptRow for \(corrupt), got \(String(describing: error))")
                continue
            }
            #expect(column == "charges")
        }
    }

    @Test("a reload of configurations out of budget defers them with the ledger read in the batch")
    func deferredFromBatchLedger() async throws {
        let (engine, store, clock) = try await Self.fixture()
        let keys = try Self.keys(store)
        let now = clock.now
        let full = (0..<ReloadBudgetPolicy.default.reloadsPerWindow).map { now.addingTimeInterval(Double(-60 - $0)) }
        try store.write { db in
            try db.execute("UPDATE configurations SET charges = ? WHERE key = ?", [
                .text(EngineCoding.text(full.map { $0.timeIntervalSince1970 })), .text(keys[4])])
        }
        let records = try await engine.reloadAllTimelines()
        #expect(Set(records.map(\.configurationKey)) == Set(keys.dropLast()))
        let deferred = try store.read { db in try store.scheduledReload(configurationKey: keys[4], db) }
        #expect(deferred?.deferredByBudget == true)
        #expect(deferred?.dueAt == full.last.map { $0.addingTimeInterval(ReloadBudgetPolicy.default.window) })
    }

    @Test("a run's outcome, schedule and charge in one row rewrite: accepted or refused, charged or not")
    func oneRowRewrite() async throws {
        let (_, store, clock) = try await Self.fixture()
        let key = try Self.keys(store)[0]
        let policy = ReloadBudgetPolicy.default
        let now = clock.now
        let old = now.addingTimeInterval(-policy.window - 5)
        let timeline = StoredTimeline(entries: [EntrySnapshot(date: now, content: .object(["n": .int(1)]))],
                                      policy: .never, generatedAt: now)
        let accepted = ProviderRunOutcome.accepted(TimelineValidator.Outcome(timeline: timeline, wasReordered: true))
        let diagnostics = [TimelineDiagnostic(code: .deletedEntity, severity: .warning, message: "gone")]
        for (outcome, chargedAt) in [(accepted, now), (accepted, nil), (.rejected("no entries"), now),
                                     (.rejected("no entries"), nil)] as [(ProviderRunOutcome, Date?)] {
            let before = try store.read { db in
                try db.queryOne("SELECT * FROM configurations WHERE key = ?", [.text(key)])
            }
            let charges = [old.timeIntervalSince1970, now.addingTimeInterval(-60).timeIntervalSince1970]
            try store.write { db in
                try db.execute("UPDATE configurations SET charges = ?, timeline = ?, last_failure = NULL WHERE key = ?",
                               [.text(EngineCoding.text(charges)), before?.value("timeline") ?? .null, .text(key)])
                let next = ScheduledReload(dueAt: now.addingTimeInterval(900), reason: .scheduled,
                                           deferredByBudget: false)
                try store.recordProviderRun(key: key, outcome: outcome, diagnostics: diagnostics, next: next,
                                            servedDigest: before?.data("served_digest"), chargedAt: chargedAt,
                                            policy: policy, db)
            }
            let row = try #require(try store.read { db in
                try db.queryOne("SELECT * FROM configurations WHERE key = ?", [.text(key)])
            })
            #expect(row.int("provider_runs") == (before?.int("provider_runs") ?? 0) + 1)
            #expect(row.data("served_digest")?.count == ServedListDigest.length)
            #expect(row.date("next_reload_at") == now.addingTimeInterval(900))
            #expect(row.string("next_reload_reason") == "scheduled")
            #expect(row.string("resolution_diagnostics") == EngineCoding.text(diagnostics: diagnostics))
            let ledger = try Self.charges(row)
            #expect(ledger == (chargedAt == nil ? charges : [charges[1], now.timeIntervalSince1970]))
            if case .accepted = outcome {
                #expect(row.string("timeline") == (try timeline.storedText()) && row.string("last_failure") == nil)
                #expect(row.int("reordered") == 1)
            } else {
                #expect(row.string("timeline") == before?.string("timeline"))
                #expect(row.string("last_failure") == "no entries")
            }
        }
    }

    static func charges(_ row: Row) throws -> [Double] {
        let parsed = try JSONParser.parse(Data((row.string("charges") ?? "").utf8))
        guard case .array(let values) = parsed else { return [] }
        return values.compactMap { value in
            switch value {
            case .int(let seconds): Double(seconds)
            case .double(let seconds): seconds
            default: nil
            }
        }
    }

    @Test("the reload log as stored: a charged run's list interned, its charges as the marker; an exempt run's empty")
    func reloadLogAsStored() async throws {
        let (engine, store, _) = try await Self.fixture()
        let instance = try await engine.instance(id: "w3")
        let history = try store.read { db in try store.reloadLog(of: instance, limit: 10, db) }
        #expect(history.map(\.reason) == [.allReload, .allReload, .configurationChanged])
        #expect(history.allSatisfy { $0.instanceIDs == ["w3"] })
        #expect(history.map(\.chargedInstanceIDs) == [["w3"], ["w3"], []])
        let texts = try store.read { db in
            try db.query("""
                SELECT served.instance_ids, log.charged_instance_ids
                FROM reload_log AS log JOIN reload_log_served AS served ON served.id = log.served_id
                WHERE log.configuration_key = ? ORDER BY log.sequence
                """, [.text(instance.configurationKey)])
        }
        #expect(texts.map { $0.string("charged_instance_ids") } == [#"[]"#, "*", "*"])
        #expect(texts.map { $0.string("instance_ids") } == [#"["w3"]"#, #"["w3"]"#, #"["w3"]"#])
    }
}
