import Foundation
import Testing
@testable import SharedState

@Suite("Database")
struct DatabaseTests {
    /// Statements are found again by where their text is (`recentStatements`): SQL built anew each time, freed and
    /// then made again at the same address with other text, must still get its own statement.
    @Test func statementsFoundByAddressAreCheckedAgainstTheirText() throws {
        let store = try DatabaseStore.inMemory()
        try store.write { db in
            for round in 0..<2_000 {
                // Heap strings (longer than a small string), built per iteration: the allocator reuses addresses.
                let sql = "SELECT \(round % 7) AS value, 'a padding long enough to be stored on the heap'"
                #expect(try db.scalar(sql, as: Int64.self) == Int64(round % 7))
                #expect(try db.scalar("SELECT 42 AS value, 'a literal of the same length as the built one'",
                                      as: Int64.self) == 42)
                try db.execute("CREATE TEMP TABLE IF NOT EXISTS seen(value INTEGER)")
                try db.execute("INSERT INTO seen(value) VALUES (\(round % 5))")
            }
            #expect(try db.scalar("SELECT sum(value) FROM seen", as: Int64.self) == Int64((0..<2_000).reduce(0) { $0 + $1 % 5 }))
        }
    }

    /// A cached statement keeps its column names until SQLite prepares it again: `SELECT *` run before and after a
    /// column is added, renamed or dropped reads the columns of the moment each time.
    @Test func cachedStatementsReadTheirColumnNamesAgainAfterTheSchemaChanged() throws {
        let store = try DatabaseStore.inMemory()
        try store.write { db in
            let select = "SELECT * FROM item"
            try db.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute("INSERT INTO item(name) VALUES ('first')")
            #expect(try db.queryOne(select)?.columnNames == ["id", "name"])
            #expect(try db.query(select).first?.columnNames == ["id", "name"])
            try db.execute("ALTER TABLE item ADD COLUMN a_column_name_longer_than_fifteen TEXT DEFAULT 'x'")
            #expect(try db.queryOne(select)?.columnNames == ["id", "name", "a_column_name_longer_than_fifteen"])
            #expect(try db.queryOne(select)?.string("a_column_name_longer_than_fifteen") == "x")
            try db.execute("ALTER TABLE item RENAME COLUMN name TO title")
            #expect(try db.query(select).first?.columnNames == ["id", "title", "a_column_name_longer_than_fifteen"])
            #expect(try db.queryOne(select)?.string("title") == "first")
            try db.execute("ALTER TABLE item DROP COLUMN a_column_name_longer_than_fifteen")
            #expect(try db.queryOne(select)?.columnNames == ["id", "title"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func executeQueryAndTypedRows(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let date = Date(timeIntervalSince1970: 1_700_000_000.25)
            try store.write { db in
                try db.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT, score REAL, flag INTEGER, payload BLOB, at REAL)")
                try db.execute("INSERT INTO item(name, score, flag, payload, at) VALUES (?, ?, ?, ?, ?)",
                               ["héllo 👋", 2.5, true, .blob(Data([0, 1, 2])), date.sqlValue])
                #expect(db.changes == 1)
                #expect(db.lastInsertRowID == 1)
                try db.execute("INSERT INTO item(name, score, flag, payload, at) VALUES (?, ?, ?, ?, ?)",
                               ["", .null, false, .blob(Data()), .null])
            }
            let rows = try store.read { db in try db.query("SELECT * FROM item ORDER BY id") }
            #expect(rows.count == 2)
            #expect(rows[0].string("name") == "héllo 👋")
            #expect(rows[0].double("score") == 2.5)
            #expect(rows[0].bool("flag") == true)
            #expect(rows[0].data("payload") == Data([0, 1, 2]))
            #expect(rows[0].date("at") == date)
            #expect(rows[0].int("id") == 1)
            // Empty text and empty blobs stay empty, not NULL.
            #expect(rows[1]["name"] == .text(""))
            #expect(rows[1]["payload"] == .blob(Data()))
            #expect(rows[1]["score"] == .null)
            #expect(rows[1].value("score", as: Double?.self) == .some(nil))
            #expect(rows[1]["missing"] == nil)
            let count = try store.read { db in try db.scalar("SELECT count(*) FROM item WHERE name = ?", ["héllo 👋"], as: Int.self) }
            #expect(count == 1)
            let length = try store.read { db in try db.scalar("SELECT length(CAST(? AS BLOB))", ["👋"], as: Int.self) }
            #expect(length == 4, "text is bound by its UTF-8 byte count")
            let none = try store.read { db in try db.queryOne("SELECT * FROM item WHERE id = ?", [99]) }
            #expect(none == nil)
        }
    }

    @Test("texts: the first column's text values in row order, non-text values left out", arguments: StoreKind.allCases)
    func textsOfTheFirstColumn(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { db in
                try db.execute("CREATE TABLE tag(id INTEGER PRIMARY KEY, name)")
                for name: SQLValue in ["b", "a\u{0}z", .null, 7, "héllo 👋", ""] {
                    try db.execute("INSERT INTO tag(name) VALUES (?)", [name])
                }
            }
            let texts = try store.read { db in try db.texts("SELECT name, id FROM tag ORDER BY id") }
            #expect(texts == ["b", "a\u{0}z", "héllo 👋", ""], "NUL kept (lengths from SQLite), NULL and 7 left out")
            let none = try store.read { db in try db.texts("SELECT name FROM tag WHERE id > ?", [99]) }
            #expect(none.isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func errorsCarryCodeMessageSQLAndFunction(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { db in try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL)") }
            let syntax = #expect(throws: SQLiteError.self) {
                try store.write { db in try db.execute("INSERT INTO nope VALUES (?)", [1]) }
            }
            #expect(syntax?.code == 1)
            #expect(syntax?.message.contains("no such table: nope") == true)
            #expect(syntax?.sql == "INSERT INTO nope VALUES (?)")
            #expect(syntax?.function.isEmpty == false)
            #expect(syntax?.description.contains("INSERT INTO nope") == true)
            let constraint = #expect(throws: SQLiteError.self) {
                try store.write { db in try db.execute("INSERT INTO t(name) VALUES (?)", [.null]) }
            }
            #expect(constraint?.code == 19)
            #expect(constraint?.extendedCode == 1299) // SQLITE_CONSTRAINT_NOTNULL
            let arity = #expect(throws: SQLiteError.self) {
                try store.write { db in try db.execute("INSERT INTO t(name) VALUES (?)", ["a", "b"]) }
            }
            #expect(arity?.code == 25) // SQLITE_RANGE
            #expect(throws: SQLiteError.self) {
                try store.write { db in try db.execute("INSERT INTO t(name) VALUES (?); SELECT 1", ["a"]) }
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func multiStatementExecuteAndStatementCache(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { db in
                try db.execute("""
                    CREATE TABLE a(x); CREATE TABLE b(y);
                    INSERT INTO a VALUES (1); -- a comment
                    """)
                for value in 0..<100 { try db.execute("INSERT INTO b VALUES (?)", [.integer(Int64(value))]) }
            }
            let sum = try store.read { db in try db.scalar("SELECT sum(y) FROM b", as: Int.self) }
            #expect(sum == 4950)
            let a = try store.read { db in try db.scalar("SELECT x FROM a", as: Int.self) }
            #expect(a == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func nestedSavepointsRollBackOnlyTheirOwnWork(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { db in
                try db.execute("CREATE TABLE t(v INTEGER)")
                try db.execute("INSERT INTO t VALUES (1)")
                try db.inSavepoint { db in
                    try db.execute("INSERT INTO t VALUES (2)")
                    #expect(throws: Rollback.self) {
                        try db.inSavepoint { db in
                            try db.execute("INSERT INTO t VALUES (3)")
                            try db.inSavepoint { db in try db.execute("INSERT INTO t VALUES (4)") }
                            throw Rollback()
                        }
                    }
                    try db.execute("INSERT INTO t VALUES (5)")
                }
            }
            let values = try store.read { db in try db.query("SELECT v FROM t ORDER BY v").compactMap { $0.int("v") } }
            #expect(values == [1, 2, 5])
        }
    }
}
