import DemoWidgets
import Foundation
import JSON
@testable import SharedState
import Testing
@testable import WidgetHost

/// The reload log's served lists, each stored once (``ReloadLogSchema``).
@Suite("The reload log's served lists interned by their SHA-256")
struct ReloadLogInterningTests {
    /// SHA-256 of the texts, as `printf '%s' '["a"]' | sha256sum` prints them.
    static let digestOfA = "0EB5B8D6F81BC677DA8A08567CC4FA9A06A57E9EC8DA85ED73A7F62727996002"
    static let digestOfAB = "0473EF2DC0D324AB659D3580C1134E9D812035905C4781FDD6D529B0C6860E13"
    static let digestOfC = "FD2079A3096D5ABB9BDF54CC5C80262E7B58BAC10D524846455474BEFF760BE9"

    static func servedLists(_ store: EngineStore) throws -> [[String]] {
        try store.database.read { db in
            try db.query("SELECT hex(digest) AS digest, instance_ids FROM reload_log_served ORDER BY id").map {
                [$0.string("digest") ?? "", $0.string("instance_ids") ?? ""]
            }
        }
    }

    static func servedIDs(_ store: EngineStore) throws -> [Int] {
        try store.database.read { db in
            try db.query("SELECT served_id FROM reload_log ORDER BY sequence").compactMap { $0.int("served_id") }
        }
    }

    @Test("runs serving the same instances share one list, keyed by the SHA-256 of its text; a set seen before is found again")
    func sameInstancesOneList() async throws {
        let fixture = try EngineFixture()
        let engine = fixture.engine
        try await engine.place(kind: "Daily", family: .systemSmall, id: "a")
        try await engine.place(kind: "Daily", family: .systemSmall, id: "b")   // a's configuration: no run of its own
        _ = try await engine.reloadTimelines(ofKind: "Daily")
        _ = try await engine.reloadTimelines(ofKind: "Daily")
        #expect(try Self.servedLists(fixture.store) == [[Self.digestOfA, #"["a"]"#], [Self.digestOfAB, #"["a","b"]"#]])
        #expect(try Self.servedIDs(fixture.store) == [1, 2, 2])

        try await engine.remove(instanceID: "b")
        _ = try await engine.reloadTimelines(ofKind: "Daily")
        #expect(try Self.servedLists(fixture.store).count == 2, "[\"a\"] is interned already")
        #expect(try Self.servedIDs(fixture.store) == [1, 2, 2, 1])
        let history = try await engine.reloads(ofInstance: "a", limit: 10)
        #expect(history.map(\.instanceIDs) == [["a"], ["a", "b"], ["a", "b"], ["a"]])
        #expect(history.map(\.chargedInstanceIDs) == [["a"], ["a", "b"], ["a", "b"], []])
    }

    @Test("a configuration whose writes are rolled back leaves no list behind; the other configurations' are stored")
    func rolledBackRunLeavesNoList() async throws {
        let fixture = try EngineFixture()
        let engine = fixture.engine
        try await engine.place(kind: "Daily", family: .systemSmall, id: "a")
        try await engine.place(kind: "Daily", family: .systemMedium, id: "c")
        try await engine.place(kind: "Daily", family: .systemMedium, id: "d")
        let key = try await engine.state(ofInstance: "c").instance.configurationKey
        try fixture.store.database.write { db in
            try db.execute("""
                CREATE TRIGGER refuse_one BEFORE INSERT ON reload_log
                WHEN NEW.configuration_key = '\(key.replacingOccurrences(of: "'", with: "''"))'
                BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                """)
        }
        await #expect(throws: SQLiteError.self) { try await engine.reloadTimelines(ofKind: "Daily") }
        #expect(try Self.servedLists(fixture.store).map { $0[1] } == [#"["a"]"#, #"["c"]"#])
        #expect(try Self.servedIDs(fixture.store) == [1, 2, 1], "placements, then a's run; not c and d's")

        try fixture.store.database.write { db in try db.execute("DROP TRIGGER refuse_one") }
        _ = try await engine.reloadTimelines(ofKind: "Daily")
        #expect(try Self.servedLists(fixture.store).map { $0[1] } == [#"["a"]"#, #"["c"]"#, #"["c","d"]"#])
    }

    static func currentDigest(_ store: EngineStore, _ key: String) throws -> String? {
        try store.database.read { db in
            try db.scalar("SELECT hex(served_digest) FROM configurations WHERE key = ? AND served_digest IS NOT NULL",
                          [.text(key)], as: String.self)
        }
    }

    @Test("a configuration's row keeps its current list, cleared when an instance joins, leaves or moves; reopened, the store reads the instances")
    func currentListByConfiguration() async throws {
        let fixture = try EngineFixture()
        let engine = fixture.engine
        let thesis: [String: JSONValue] = ["project": .string("proj-thesis")]
        try await engine.place(kind: "ProjectProgress", family: .systemSmall, parameters: thesis, id: "p")
        let key = try await engine.state(ofInstance: "p").instance.configurationKey
        let digestOfP = "F2C7CDEFCAE729AC71A98FA2859121127A77867899914583A1D313AD08828D48"
        #expect(try Self.currentDigest(fixture.store, key) == digestOfP)
        try await engine.place(kind: "ProjectProgress", family: .systemSmall, parameters: thesis, id: "q")
        #expect(try Self.currentDigest(fixture.store, key) == nil, "q joined")
        #expect(try await engine.reloadTimelines(ofKind: "ProjectProgress").map(\.instanceIDs) == [["p", "q"]])
        let digestOfPQ = try #require(try Self.currentDigest(fixture.store, key))
        #expect(try await engine.reloadTimelines(ofKind: "ProjectProgress").map(\.instanceIDs) == [["p", "q"]])

        try await engine.update(instanceID: "q", parameters: ["project": .string("proj-launch")])
        #expect(try Self.currentDigest(fixture.store, key) == nil, "q moved to another configuration")
        #expect(try await engine.reloadTimelines(ofKind: "ProjectProgress").map(\.instanceIDs).sorted { $0[0] < $1[0] }
            == [["p"], ["q"]])
        #expect(try Self.currentDigest(fixture.store, key) == digestOfP, "the list interned before, found again")
        try await engine.remove(instanceID: "p")
        #expect(try Self.currentDigest(fixture.store, key) == nil, "p left")

        // While no instance changes, the row's list is what a run names, without reading the instances: set to
        // another interned list behind the engine's back, the next run names that one.
        try await engine.place(kind: "ProjectProgress", family: .systemSmall, parameters: thesis, id: "p")
        _ = try await engine.reloadTimelines(ofKind: "ProjectProgress")
        try fixture.store.database.write { db in
            try db.execute("""
                UPDATE configurations SET served_digest = (SELECT digest FROM reload_log_served WHERE hex(digest) = ?)
                WHERE key = ?
                """, [.text(digestOfPQ), .text(key)])
        }
        let trusted = try await engine.reloadTimelines(ofKind: "ProjectProgress")
        #expect(trusted.first { $0.configurationKey == key }?.instanceIDs == ["p", "q"])
        // A store opened again knows no list yet: it reads the instances.
        let reopened = try fixture.reopened()
        let read = try await reopened.engine.reloadTimelines(ofKind: "ProjectProgress")
        #expect(read.first { $0.configurationKey == key }?.instanceIDs == ["p"])
    }

    @Test("a list that is not the text of its digest cannot be named by a run: the foreign key and the digest's length")
    func constraints() throws {
        let store = try EngineStore.inMemory()
        try store.database.write { db in
            #expect(throws: SQLiteError.self) {
                try db.execute("""
                    INSERT INTO reload_log(configuration_key, reason, ran_at, served_id, charged_instance_ids, outcome)
                    VALUES ('k', 'scheduled', 0, 42, '*', 'accepted')
                    """)
            }
            try db.execute("INSERT OR IGNORE INTO reload_log_served(digest, instance_ids) VALUES (x'00', '[]')")
            #expect(try db.scalar("SELECT count(*) FROM reload_log_served", as: Int.self) == 0)
        }
    }
}

/// A database whose reload log holds each run's list in its own row, opened by today's engine.
@Suite("Migration of the reload log's served lists into interned lists")
struct ReloadLogInterningMigrationTests {
    static var oldMigrator: Migrator {
        EngineSchemaBefore.migrator(without: [ReloadLogSchema.internedServedListsMigrationName,
                                              ReloadLogSchema.servedListByConfigurationMigrationName])
    }

    @Test("rows written before read as before through the engine, in order; equal texts share one list; new runs reuse it")
    func migratesOldRows() async throws {
        let directory = try EngineSchemaBefore.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let start = EngineFixture.date("2026-11-25T10:00:00+09:00")
        let t = start.timeIntervalSince1970
        let small = WidgetEngine.configurationKey(kind: "Daily", family: "systemSmall", parameters: [:])
        let medium = WidgetEngine.configurationKey(kind: "Daily", family: "systemMedium", parameters: [:])
        do {
            let old = try DatabaseStore(path: directory.appendingPathComponent("widgethost.sqlite").path)
            try Self.oldMigrator.migrate(old)
            try old.write { db in
                for (key, family) in [(small, "systemSmall"), (medium, "systemMedium")] {
                    try db.execute("""
                        INSERT INTO configurations(key, kind, family, parameters) VALUES (?, 'Daily', ?, '{}')
                        """, [.text(key), .text(family)])
                }
                for (id, key) in [("a", small), ("b", small), ("c", medium)] {
                    try db.execute("""
                        INSERT INTO widget_instances(id, kind, family, raw_parameters, configuration_key, placed_at,
                            updated_at)
                        VALUES (?, 'Daily', ?, '{}', ?, ?, ?)
                        """, [.text(id), .text(key == small ? "systemSmall" : "systemMedium"), .text(key),
                              .real(t - 600), .real(t - 600)])
                }
                // As the engine wrote them: the list in each row, a charged run's charges as the list (before the
                // marker) or as the marker, an exempt run's as [].
                let rows: [(String, String, Double, String, String, String)] = [
                    (small, "configuration-changed", t - 600, #"["a"]"#, "[]", "accepted"),
                    (medium, "configuration-changed", t - 600, #"["c"]"#, "[]", "accepted"),
                    (small, "kind-reload", t - 300, #"["a","b"]"#, #"["a","b"]"#, "accepted"),
                    (small, "scheduled", t - 60, #"["a","b"]"#, "*", "rejected: the test"),
                ]
                for (key, reason, ranAt, served, charged, outcome) in rows {
                    try db.execute("""
                        INSERT INTO reload_log(configuration_key, reason, ran_at, instance_ids, charged_instance_ids,
                            outcome) VALUES (?, ?, ?, ?, ?, ?)
                        """, [.text(key), .text(reason), .real(ranAt), .text(served), .text(charged), .text(outcome)])
                }
            }
        }

        let fixture = try EngineFixture(start: start, directory: directory)
        let engine = fixture.engine
        #expect(try Migrator.appliedMigrations(in: fixture.store.database)
            .contains(ReloadLogSchema.internedServedListsMigrationName))
        let a = try await engine.reloads(ofInstance: "a", limit: 10)
        #expect(a == [
            ReloadRecord(configurationKey: small, reason: .scheduled, ranAt: Date(timeIntervalSince1970: t - 60),
                         instanceIDs: ["a", "b"], chargedInstanceIDs: ["a", "b"], outcome: "rejected: the test"),
            ReloadRecord(configurationKey: small, reason: .kindReload, ranAt: Date(timeIntervalSince1970: t - 300),
                         instanceIDs: ["a", "b"], chargedInstanceIDs: ["a", "b"], outcome: "accepted"),
            ReloadRecord(configurationKey: small, reason: .configurationChanged,
                         ranAt: Date(timeIntervalSince1970: t - 600), instanceIDs: ["a"], chargedInstanceIDs: [],
                         outcome: "accepted"),
        ])
        #expect(try await engine.reloads(ofInstance: "b", limit: 10) == Array(a.prefix(2)))
        #expect(try await engine.reloads(ofInstance: "c", limit: 10).map(\.instanceIDs) == [["c"]])
        #expect(try ReloadLogInterningTests.servedLists(fixture.store) == [
            [ReloadLogInterningTests.digestOfA, #"["a"]"#],
            [ReloadLogInterningTests.digestOfC, #"["c"]"#],
            [ReloadLogInterningTests.digestOfAB, #"["a","b"]"#],
        ])
        let columns = try fixture.store.database.read { db in
            try db.query("SELECT name FROM pragma_table_info('reload_log')").compactMap { $0.string("name") }
        }
        #expect(!columns.contains("instance_ids") && columns.contains("served_id"))

        // A run after the migration follows the old rows and names the list they interned.
        _ = try await engine.reloadTimelines(ofKind: "Daily")
        let after = try await engine.reloads(ofInstance: "a", limit: 10)
        #expect(after.count == 4 && Array(after.dropFirst()) == a)
        #expect(after.first?.reason == .kindReload && after.first?.instanceIDs == ["a", "b"])
        #expect(try ReloadLogInterningTests.servedLists(fixture.store).count == 3)
        let sequences = try fixture.store.database.read { db in
            try db.query("SELECT sequence FROM reload_log ORDER BY sequence").compactMap { $0.int("sequence") }
        }
        #expect(sequences == [1, 2, 3, 4, 5, 6])
    }
}
