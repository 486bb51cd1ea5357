import Foundation
import PostgresStore
import PostgresTestSupport
import Testing

/// Transactions under contention, migrations run by several processes' worth of pools, and a server that goes
/// away and comes back.
@Suite(.enabled(if: ThrowawayCluster.isAvailable, Comment(rawValue: ThrowawayCluster.skipReason)))
struct PostgresTransactionTests {
    @Test func serializableIncrementsAllLandDespiteConflicts() async throws {
        let url = try ThrowawayCluster.shared().makeDatabase()
        let pool = try PostgresPool(connectionString: url, maximumConnections: 8)
        try pool.withConnection { db in
            try db.execute("CREATE TABLE counter(id int8 PRIMARY KEY, value int8 NOT NULL)")
            try db.execute("INSERT INTO counter VALUES (1, 0)")
        }
        let workers = 8, increments = 25
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<workers {
                group.addTask {
                    for _ in 0..<increments {
                        // Read, then write what was read plus one: without the retry on 40001 some would be lost.
                        try pool.transaction(isolation: .serializable) { db in
                            let value = try db.queryOne("SELECT value FROM counter WHERE id = 1")?.int64("value") ?? 0
                            try db.execute("UPDATE counter SET value = $1 WHERE id = 1", [.integer(value + 1)])
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let value = try pool.withConnection { db in try db.queryOne("SELECT value FROM counter")?.int("value") }
        #expect(value == workers * increments)
    }

    @Test func migrationsApplyOnceAcrossConcurrentMigrators() async throws {
        let url = try ThrowawayCluster.shared().makeDatabase()
        var migrator = PostgresMigrator()
        migrator.registerMigration("1-table") { db in try db.execute("CREATE TABLE t(id int8 PRIMARY KEY)") }
        migrator.registerMigration("2-row") { db in try db.execute("INSERT INTO t VALUES (42)") }
        let applied = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<4 {
                group.addTask { [migrator] in try migrator.migrate(try PostgresPool(connectionString: url)) }
            }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(applied.sorted() == ["1-table", "2-row"])
        let pool = try PostgresPool(connectionString: url)
        #expect(try PostgresMigrator.appliedMigrations(in: pool) == ["1-table", "2-row"])
        #expect(try migrator.migrate(pool).isEmpty)
        #expect(try pool.withConnection { try $0.queryOne("SELECT count(*) AS n FROM t")?.int("n") } == 1)
    }

    @Test func aStoppedServerIsUnavailableAndThePoolRecoversWhenItIsBack() throws {
        let cluster = try ThrowawayCluster.makeCluster()
        defer { cluster.remove() }
        let pool = try PostgresPool(connectionString: try cluster.makeDatabase())
        try pool.transaction { db in try db.execute("CREATE TABLE kept(id int8)") }
        try pool.transaction { db in try db.execute("INSERT INTO kept VALUES (1)") }

        try cluster.stopImmediately()
        let error = #expect(throws: PostgresError.self) {
            try pool.transaction { db in try db.execute("INSERT INTO kept VALUES (2)") }
        }
        #expect(error?.kind == .unavailable, "\(String(describing: error))")
        #expect(error?.isUnavailable == true)

        try cluster.start()
        // The pooled connection died with the server; the transaction reconnects without the caller's help.
        try pool.transaction { db in try db.execute("INSERT INTO kept VALUES (3)") }
        let ids = try pool.withConnection { db in try db.query("SELECT id FROM kept ORDER BY id").compactMap { $0.int("id") } }
        #expect(ids == [1, 3])
    }
}
