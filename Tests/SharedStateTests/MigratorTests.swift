import Foundation
import Testing
@testable import SharedState

@Suite("Migrator")
struct MigratorTests {
    /// Records the order migrations ran in, across threads (migrations are `@Sendable`).
    final class Journal: Sendable {
        let entries = LockedValue<[String]>([])
        func note(_ name: String) { entries.mutate { $0.append(name) } }
    }

    @Test(arguments: StoreKind.allCases)
    func migrationsRunOnceInOrder(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let journal = Journal()
            var migrator = Migrator()
            migrator.registerMigration("Test.1-create") { db in
                journal.note("1")
                try db.execute("CREATE TABLE t(a)")
            }
            migrator.registerMigration("Test.2-column") { db in
                journal.note("2")
                try db.execute("ALTER TABLE t ADD COLUMN b")
            }
            #expect(try migrator.migrate(store) == ["Test.1-create", "Test.2-column"])
            #expect(journal.entries.value == ["1", "2"])
            #expect(try migrator.migrate(store) == [])
            #expect(journal.entries.value == ["1", "2"], "re-running applies nothing")

            migrator.registerMigration("Test.3-index") { db in
                journal.note("3")
                try db.execute("CREATE INDEX t_b ON t(b)")
            }
            #expect(try migrator.migrate(store) == ["Test.3-index"])
            #expect(journal.entries.value == ["1", "2", "3"])
            #expect(try Migrator.appliedMigrations(in: store) == ["Test.1-create", "Test.2-column", "Test.3-index"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func failingMigrationIsRolledBackAndNotRecorded(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var migrator = Migrator()
            migrator.registerMigration("Test.1-ok") { db in try db.execute("CREATE TABLE ok(a)") }
            migrator.registerMigration("Test.2-broken") { db in
                try db.execute("CREATE TABLE half(a)")
                try db.execute("CREATE TABLE ok(a)") // fails: exists
            }
            migrator.registerMigration("Test.3-never") { db in try db.execute("CREATE TABLE never(a)") }
            #expect(throws: SQLiteError.self) { try migrator.migrate(store) }
            #expect(try Migrator.appliedMigrations(in: store) == ["Test.1-ok"])
            let tables = try store.read { db in
                try db.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").compactMap { $0.string("name") }
            }
            #expect(tables.contains("ok"))
            #expect(!tables.contains("half"), "the failed migration's own work is rolled back")
            #expect(!tables.contains("never"))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func migratorsCompose(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var first = Migrator()
            first.registerMigration("A.1") { db in try db.execute("CREATE TABLE a(x)") }
            var second = Migrator()
            second.registerMigration("B.1") { db in try db.execute("CREATE TABLE b(x)") }
            try first.migrate(store)
            var combined = first
            combined.append(contentsOf: second)
            #expect(combined.migrations.map(\.name) == ["A.1", "B.1"])
            #expect(try combined.migrate(store) == ["B.1"])
        }
    }

    @Test func containerRecordsItsOwnMigration() throws {
        try withContainer(.onDisk) { container throws in
            #expect(try Migrator.appliedMigrations(in: container.store) == ["SharedState.1-defaults"])
        }
    }
}
