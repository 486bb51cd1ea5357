import Foundation
import SharedState
import Testing
@testable import WidgetHost

/// The owed-reload table on its own: what a record holds, marking done, purging, the migration.
@Suite("Owed reload ledger")
struct OwedReloadLedgerTests {
    static let t0 = Date(timeIntervalSince1970: 1_714_554_000)

    /// A container with the runner's tables, in memory or in a temporary directory (removed by `cleanUp`).
    static func makeContainer(onDisk: Bool) throws -> (AppGroupContainer, cleanUp: () -> Void) {
        let container: AppGroupContainer
        var cleanUp = {}
        if onDisk {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("OwedReloadLedgerTests-\(UUID().uuidString)", isDirectory: true)
            container = try AppGroupContainer(identifier: "group.owed.tests", dataDirectory: directory)
            cleanUp = { try? FileManager.default.removeItem(at: directory) }
        } else {
            container = try AppGroupContainer.inMemory(identifier: "group.owed.tests")
        }
        try IntentRunner.migrator.migrate(container.store)
        return (container, cleanUp)
    }

    @Test(arguments: [false, true])
    func aPerformThatReloadsNothingOwesNothing(onDisk: Bool) throws {
        let (container, cleanUp) = try Self.makeContainer(onDisk: onDisk)
        defer { cleanUp() }
        let entry = try container.store.write { db in
            try OwedReloadLedger.record(idempotencyKey: "k", instanceID: nil, requests: [], committedAt: Self.t0, db)
        }
        #expect(entry == nil)
        #expect(try container.store.read { db in try OwedReloadLedger.owed(db) }.isEmpty)
    }

    @Test(arguments: [false, true])
    func anEntryReadsBackAsRecorded(onDisk: Bool) throws {
        let (container, cleanUp) = try Self.makeContainer(onDisk: onDisk)
        defer { cleanUp() }
        let (tapped, requested) = try container.store.write { db in
            (try OwedReloadLedger.record(idempotencyKey: "tap-1", instanceID: "list", requests: [], committedAt: Self.t0,
                                         db),
             try OwedReloadLedger.record(idempotencyKey: nil, instanceID: nil, requests: [.kind("Progress"), .all],
                                         committedAt: Self.t0, db))
        }
        let expected = [
            OwedReloadLedger.Entry(id: 1, idempotencyKey: "tap-1", instanceID: "list", requests: []),
            OwedReloadLedger.Entry(id: 2, idempotencyKey: nil, instanceID: nil, requests: [.kind("Progress"), .all]),
        ]
        #expect([tapped, requested] == expected)
        #expect(try container.store.read { db in try OwedReloadLedger.owed(db) } == expected)
        #expect(try container.store.read { db in try OwedReloadLedger.owed(forKey: "tap-1", db) } == [expected[0]])
        #expect(try container.store.read { db in try OwedReloadLedger.owed(forKey: "other", db) }.isEmpty)
        // Requests are stored as outcomes name them (`requestedReloads`): kinds, "*" for all.
        let stored = try container.store.read { db in
            try db.scalar("SELECT requests FROM widgethost_owed_reloads WHERE id = 2", as: String.self)
        }
        #expect(stored == #"["Progress","*"]"#)
    }

    @Test(arguments: [false, true])
    func markingDoneTwiceKeepsTheFirstTime(onDisk: Bool) throws {
        let (container, cleanUp) = try Self.makeContainer(onDisk: onDisk)
        defer { cleanUp() }
        let entry = try #require(try container.store.write { db in
            try OwedReloadLedger.record(idempotencyKey: "k", instanceID: "list", requests: [], committedAt: Self.t0, db)
        })
        try container.store.write { db in try OwedReloadLedger.markDone([entry.id], at: Self.t0 + 1, db) }
        try container.store.write { db in try OwedReloadLedger.markDone([entry.id], at: Self.t0 + 9, db) }
        #expect(try container.store.read { db in try OwedReloadLedger.owed(db) }.isEmpty)
        #expect(try container.store.read { db in try OwedReloadLedger.owed(forKey: "k", db) }.isEmpty)
        let doneAt = try container.store.read { db in
            try db.scalar("SELECT done_at FROM widgethost_owed_reloads WHERE id = ?", [.integer(entry.id)], as: Date.self)
        }
        #expect(doneAt == Self.t0 + 1)
    }

    @Test(arguments: [false, true])
    func purgingDeletesOnlyEntriesDoneLongEnoughAgo(onDisk: Bool) throws {
        let (container, cleanUp) = try Self.makeContainer(onDisk: onDisk)
        defer { cleanUp() }
        try container.store.write { db in
            for (index, key) in ["old-done", "new-done", "old-owed"].enumerated() {
                _ = try OwedReloadLedger.record(idempotencyKey: key, instanceID: "list", requests: [],
                                                committedAt: Self.t0 + Double(index), db)
            }
            try OwedReloadLedger.markDone([1], at: Self.t0 + 10, db)
            try OwedReloadLedger.markDone([2], at: Self.t0 + 20, db)
            try OwedReloadLedger.purge(doneThrough: Self.t0 + 10, db)
        }
        let left = try container.store.read { db in
            try db.query("SELECT idempotency_key FROM widgethost_owed_reloads ORDER BY id").compactMap {
                $0.string("idempotency_key")
            }
        }
        #expect(left == ["new-done", "old-owed"])
    }

    @Test
    func aContainerOfAnEarlierVersionGetsTheTableByItsNamedMigration() throws {
        let container = try AppGroupContainer.inMemory(identifier: "group.owed.tests")
        var earlier = Migrator()
        IdempotencyLedger.registerMigrations(in: &earlier)
        try earlier.migrate(container.store)
        #expect(try IntentRunner.migrator.migrate(container.store)
                == ["WidgetHost.intents.2-owed-reloads", "WidgetHost.intents.3-owed-control-reloads"])
        #expect(try IntentRunner.migrator.migrate(container.store).isEmpty)
        let applied = try Migrator.appliedMigrations(in: container.store)
        #expect(applied.suffix(3) == ["WidgetHost.intents.1-idempotency-keys", "WidgetHost.intents.2-owed-reloads",
                                      "WidgetHost.intents.3-owed-control-reloads"])
    }

    @Test
    func aContainerWithOwedWidgetReloadsGetsTheControlColumnsAndKeepsItsRows() throws {
        let container = try AppGroupContainer.inMemory(identifier: "group.owed.tests")
        var earlier = Migrator()
        IdempotencyLedger.registerMigrations(in: &earlier)
        earlier.registerMigration("WidgetHost.intents.2-owed-reloads") { db in
            try db.execute("""
                CREATE TABLE widgethost_owed_reloads (id INTEGER PRIMARY KEY, idempotency_key TEXT, instance_id TEXT,
                    requests TEXT NOT NULL, committed_at REAL NOT NULL, done_at REAL)
                """)
        }
        try earlier.migrate(container.store)
        try container.store.write { db in
            try db.execute("""
                INSERT INTO widgethost_owed_reloads(idempotency_key, instance_id, requests, committed_at)
                VALUES ('k', 'w', '["Kind"]', 0)
                """)
        }
        #expect(try IntentRunner.migrator.migrate(container.store) == ["WidgetHost.intents.3-owed-control-reloads"])
        let owed = try container.store.read { db in try OwedReloadLedger.owed(db) }
        #expect(owed.map(\.instanceID) == ["w"])
        #expect(owed.map(\.requests) == [[.kind("Kind")]])
        #expect(owed.map(\.controlID) == [nil])
        #expect(owed.map(\.controlRequests) == [[]])
    }

    @Test
    func idsAreMarkedInRunsOfConsecutiveIDs() {
        #expect(OwedReloadLedger.consecutiveRuns([Int64]()) == [])
        #expect(OwedReloadLedger.consecutiveRuns([7, 5, 6, 6, 9, 1, 2]) == [1...2, 5...7, 9...9])
        #expect(OwedReloadLedger.consecutiveRuns([Int64.max, .min, .max - 1]) == [.min ... .min, .max - 1 ... .max])
    }

    @Test(arguments: [false, true])
    func markingRunsLeavesTheEntriesBetweenThemOwed(onDisk: Bool) throws {
        let (container, cleanUp) = try Self.makeContainer(onDisk: onDisk)
        defer { cleanUp() }
        let ids = try container.store.write { db in
            try (1...6).map { index in
                try #require(try OwedReloadLedger.record(idempotencyKey: "k\(index)", instanceID: "w\(index)",
                                                         requests: [], committedAt: Self.t0, db)).id
            }
        }
        try container.store.write { db in
            try OwedReloadLedger.markDone([ids[4], ids[0], ids[1], ids[5]], at: Self.t0 + 1, db)
        }
        let owed = try container.store.read { db in try OwedReloadLedger.owed(db) }
        #expect(owed.map(\.id) == [ids[2], ids[3]])
    }
}
