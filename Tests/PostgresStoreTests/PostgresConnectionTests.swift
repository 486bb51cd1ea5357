import Foundation
import PostgresStore
import PostgresTestSupport
import Testing

/// The connection against a real server: parameters by length, strict reads, typed errors with SQLSTATE.
@Suite(.enabled(if: ThrowawayCluster.isAvailable, Comment(rawValue: ThrowawayCluster.skipReason)))
struct PostgresConnectionTests {
    let pool: PostgresPool

    init() throws {
        pool = try PostgresPool(connectionString: try ThrowawayCluster.shared().makeDatabase())
    }

    @Test func parametersRoundTripExactly() throws {
        let row = try pool.withConnection { db in
            try db.queryOne("SELECT $1::text AS t, $2::int8 AS i, $3::float8 AS d, $4::bool AS b, $5::text AS n",
                            [.text("zoë 🚀 'quoted'"), .integer(.min), .double(0.1 + 0.2), .boolean(true), .null])
        }
        #expect(row?.string("t") == "zoë 🚀 'quoted'")
        #expect(row?.int64("i") == .min)
        #expect(row?.double("d") == 0.1 + 0.2)
        #expect(row?.bool("b") == true)
        #expect(row?.string("n") == nil)
    }

    @Test func emptyTextIsNotNull() throws {
        let row = try pool.withConnection { db in try db.queryOne("SELECT $1::text IS NULL AS isnull, $1::text AS t", [.text("")]) }
        #expect(row?.bool("isnull") == false)
        #expect(row?.string("t") == "")
    }

    @Test func aNULByteIsRefusedNotTruncated() throws {
        let error = #expect(throws: PostgresError.self) {
            try pool.withConnection { db in try db.queryOne("SELECT $1::text AS t", [.text("ab\u{0}cd")]) }
        }
        #expect(error?.kind == .server)
        #expect(error?.sqlState == "22021")
    }

    @Test func aUniqueViolationCarriesItsSQLStateAndSQL() throws {
        try pool.withConnection { db in try db.execute("CREATE TABLE items(id int8 PRIMARY KEY)") }
        try pool.withConnection { db in try db.execute("INSERT INTO items(id) VALUES ($1)", [.integer(1)]) }
        let error = #expect(throws: PostgresError.self) {
            try pool.withConnection { db in try db.execute("INSERT INTO items(id) VALUES ($1)", [.integer(1)]) }
        }
        #expect(error?.sqlState == "23505")
        #expect(error?.sql == "INSERT INTO items(id) VALUES ($1)")
        #expect(error?.isTransient == false)
    }

    @Test func executeCountsTheRowsItChanged() throws {
        let changed = try pool.transaction { db in
            try db.execute("CREATE TABLE counted(id int8)")
            try db.execute("INSERT INTO counted SELECT generate_series(1, 7)")
            return try db.execute("DELETE FROM counted WHERE id > $1", [.integer(4)])
        }
        #expect(changed == 3)
    }

    @Test func aThrowingTransactionLeavesNothing() throws {
        struct Refused: Error {}
        try pool.withConnection { db in try db.execute("CREATE TABLE kept(id int8)") }
        #expect(throws: Refused.self) {
            try pool.transaction { db in
                try db.execute("INSERT INTO kept(id) VALUES ($1)", [.integer(1)])
                throw Refused()
            }
        }
        let count = try pool.withConnection { db in try db.queryOne("SELECT count(*) AS n FROM kept")?.int("n") }
        #expect(count == 0)
    }

    @Test func aBadConnectionStringIsRefusedWithoutItsPassword() throws {
        let error = #expect(throws: PostgresError.self) {
            try PostgresPool(connectionString: "postgres://user:s3cret@host/db?nonsense_option=1")
        }
        #expect(error?.kind == .badConnectionString)
        #expect(error.map { !$0.description.contains("s3cret") } == true)
    }
}
