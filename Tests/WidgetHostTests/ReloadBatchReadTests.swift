import Foundation
import JSON
import SharedState
import Testing
import WidgetKit
@testable import WidgetHost

@Suite("A reload batch's read: its configurations and ledgers in one statement, as read one by one")
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
}
