import Foundation
import PostgresStore
import PostgresTestSupport
import Testing

/// Array parameters against a real server: every element by length, NULL elements, empty arrays, and the server's
/// refusals (a NUL byte in an element) unchanged.
@Suite(.enabled(if: ThrowawayCluster.isAvailable, Comment(rawValue: ThrowawayCluster.skipReason)))
struct PostgresArrayTests {
    let pool: PostgresPool

    init() throws {
        pool = try PostgresPool(connectionString: try ThrowawayCluster.shared().makeDatabase())
    }

    @Test func elementsRoundTripExactlyInOrderWithTheirNulls() throws {
        let rows = try pool.withConnection { db in
            try db.query("""
                SELECT t, i, d, encode(b, 'hex') AS b, n FROM unnest($1::text[], $2::int8[], $3::float8[], $4::bytea[])
                    WITH ORDINALITY AS u(t, i, d, b, n) ORDER BY n
                """, [.textArray(["zoë 🚀 'q' {a,b} \"x\"", nil, ""]), .integerArray([.min, nil, .max]),
                      .doubleArray([0.1 + 0.2, -.infinity, nil]), .bytesArray([[0, 1, 0xFF], [], nil])])
        }
        #expect(rows.map { $0.string("t") } == ["zoë 🚀 'q' {a,b} \"x\"", nil, ""])
        #expect(rows.map { $0.int64("i") } == [.min, nil, .max])
        #expect(rows.map { $0.double("d") } == [0.1 + 0.2, -.infinity, nil])
        #expect(rows.map { $0.string("b") } == ["0001ff", "", nil])
    }

    @Test func anEmptyArrayIsEmptyNotNull() throws {
        let row = try pool.withConnection { db in
            try db.queryOne("""
                SELECT $1::text[] IS NULL AS isnull, cardinality($1::text[]) AS n, cardinality($2::int8[]) AS m,
                       (SELECT count(*) FROM unnest($3::bytea[])) AS rows
                """, [.textArray([]), .integerArray([]), .bytesArray([])])
        }
        #expect(row?.bool("isnull") == false)
        #expect(row?.int("n") == 0)
        #expect(row?.int("m") == 0)
        #expect(row?.int("rows") == 0)
    }

    @Test func aNULByteInAnElementIsRefusedNotTruncated() throws {
        let error = #expect(throws: PostgresError.self) {
            try pool.withConnection { db in
                try db.queryOne("SELECT cardinality($1::text[]) AS n", [.textArray(["ok", "ab\u{0}cd"])])
            }
        }
        #expect(error?.kind == .server)
        #expect(error?.sqlState == "22021")
    }

    @Test func aBatchInsertedThroughUnnestKeepsEveryRow() throws {
        let count = 2_500
        let names = (0..<count).map { "name-\($0)-ü" }
        try pool.withConnection { db in
            try db.execute("CREATE TABLE batch(id int8 PRIMARY KEY, name text, score float8)")
            let inserted = try db.execute("INSERT INTO batch SELECT * FROM unnest($1::int8[], $2::text[], $3::float8[])",
                                          [.integerArray((0..<count).map { Int64($0) }), .textArray(names),
                                           .doubleArray((0..<count).map { Double($0) / 4 })])
            #expect(inserted == count)
        }
        let row = try pool.withConnection { db in
            try db.queryOne("SELECT count(*) AS n, sum(score) AS s, max(name) FILTER (WHERE id = 1234) AS one FROM batch")
        }
        #expect(row?.int("n") == count)
        #expect(row?.double("s") == Double((0..<count).reduce(0, +)) / 4)
        #expect(row?.string("one") == "name-1234-ü")
    }

    @Test func theElementTypeMustMatchTheDeclaredArrayType() throws {
        // The parameter is declared int8[]; the SQL's cast to int4[] is the server's own, exact or refused.
        let error = #expect(throws: PostgresError.self) {
            try pool.withConnection { db in
                try db.queryOne("SELECT $1::int8[]::int4[] AS a", [.integerArray([Int64(Int32.max) + 1])])
            }
        }
        #expect(error?.sqlState == "22003")
    }
}
