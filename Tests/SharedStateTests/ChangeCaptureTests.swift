import Foundation
import Testing
@testable import SharedState

@Suite("Change capture")
struct ChangeCaptureTests {
    private func makeTable(_ store: DatabaseStore) throws {
        try store.write { db in
            try db.execute("CREATE TABLE task(id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0)")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func insertUpdateDeleteWithOldAndNewValues(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try makeTable(store)
            let (id, changes) = try store.writeCapturingChanges { db -> Int64 in
                try db.execute("INSERT INTO task(title) VALUES (?)", ["Write tests"])
                let id = db.lastInsertRowID
                try db.execute("UPDATE task SET done = 1 WHERE id = ?", [.integer(id)])
                try db.execute("INSERT INTO task(title) VALUES (?)", ["Delete me"])
                try db.execute("DELETE FROM task WHERE title = ?", ["Delete me"])
                return id
            }
            #expect(changes.keys.isEmpty)
            #expect(changes.rows == [
                RowChange(table: "task", operation: .insert, rowID: id, old: nil,
                          new: ["id": .integer(id), "title": "Write tests", "done": 0]),
                RowChange(table: "task", operation: .update, rowID: id,
                          old: ["id": .integer(id), "title": "Write tests", "done": 0],
                          new: ["id": .integer(id), "title": "Write tests", "done": 1]),
                RowChange(table: "task", operation: .insert, rowID: id + 1, old: nil,
                          new: ["id": .integer(id + 1), "title": "Delete me", "done": 0]),
                RowChange(table: "task", operation: .delete, rowID: id + 1,
                          old: ["id": .integer(id + 1), "title": "Delete me", "done": 0], new: nil),
            ])
            #expect(changes.changedTables == ["task"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func savepointRollbackDropsItsChanges(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try makeTable(store)
            let (_, changes) = try store.writeCapturingChanges { db in
                try db.execute("INSERT INTO task(title) VALUES ('kept')")
                #expect(throws: Rollback.self) {
                    try db.inSavepoint { db in
                        try db.execute("INSERT INTO task(title) VALUES ('dropped')")
                        try db.execute("UPDATE task SET done = 1")
                        throw Rollback()
                    }
                }
                try db.inSavepoint { db in try db.execute("INSERT INTO task(title) VALUES ('released')") }
            }
            #expect(changes.rows.map(\.operation) == [.insert, .insert])
            #expect(changes.rows.map { $0.new?["title"] } == [.text("kept"), .text("released")])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func rolledBackTransactionReportsNothingAndPlainWritesAreNotCaptured(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try makeTable(store)
            #expect(throws: Rollback.self) {
                _ = try store.writeCapturingChanges { db in
                    try db.execute("INSERT INTO task(title) VALUES ('rolled back')")
                    throw Rollback()
                }
            }
            try store.write { db in
                try db.execute("INSERT INTO task(title) VALUES ('plain')")
                try db.execute("DELETE FROM task") // cached while not capturing
            }
            let (_, changes) = try store.writeCapturingChanges { db in
                try db.execute("INSERT INTO task(title) VALUES ('a')")
                try db.execute("INSERT INTO task(title) VALUES ('b')")
                try db.execute("DELETE FROM task") // the truncate optimization must not hide these
            }
            #expect(changes.rows.map(\.operation) == [.insert, .insert, .delete, .delete])
            #expect(changes.rows.allSatisfy { $0.new?["title"] != .text("rolled back") && $0.new?["title"] != .text("plain") })
            let (_, empty) = try store.writeCapturingChanges { _ in }
            #expect(empty.isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func keyChangesCarryOldAndNewValues(kind: StoreKind) throws {
        try withContainer(kind) { container throws in
            let suite = container.suite()
            let other = container.suite(named: "widgets")
            suite.set(1, forKey: "count")
            suite.set("gone soon", forKey: "old")
            let (_, changes) = try container.store.writeCapturingChanges { db in
                try suite.set(.integer(2), forKey: "count", in: db)
                try suite.set(.integer(3), forKey: "count", in: db)
                try suite.removeObject(forKey: "old", in: db)
                try other.set(.array(["a", 1.5]), forKey: "list", in: db)
                try suite.set(.string("x"), forKey: "temporary", in: db)
                try suite.removeObject(forKey: "temporary", in: db)
                #expect(throws: Rollback.self) {
                    try db.inSavepoint { db in
                        try suite.set(.bool(true), forKey: "undone", in: db)
                        throw Rollback()
                    }
                }
            }
            #expect(changes.rows.isEmpty, "defaults rows are reported as keys only")
            #expect(changes.keys == [
                KeyChange(suite: "group.com.example.shared", key: "count", old: 1, new: 3),
                KeyChange(suite: "group.com.example.shared", key: "old", old: "gone soon", new: nil),
                KeyChange(suite: "widgets", key: "list", old: nil, new: ["a", 1.5]),
            ])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aTableAlteredOrDroppedAfterItsChangesKeepsTheirValuesUnderFittingNames(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try makeTable(store)
            let (_, changes) = try store.writeCapturingChanges { db in
                try db.execute("INSERT INTO task(title) VALUES ('before')")
                try db.execute("ALTER TABLE task ADD COLUMN note TEXT")
                try db.execute("INSERT INTO task(title, note) VALUES ('after', 'n')")
                try db.execute("CREATE TABLE gone(x, y)")
                try db.execute("INSERT INTO gone VALUES (1, 2)")
                try db.execute("DROP TABLE gone")
            }
            let rows = changes.rows.filter { $0.operation == .insert }
            #expect(rows.map(\.table) == ["task", "task", "gone"])
            // Names are read when the changes are reported: the added column names only the values that have it.
            #expect(rows[0].new == ["id": 1, "title": "before", "done": 0])
            #expect(rows[1].new == ["id": 2, "title": "after", "done": 0, "note": "n"])
            // A dropped table's values keep positional names.
            #expect(rows[2].new == ["column0": 1, "column1": 2])
            #expect(rows[2].value("column1") == 2)
            #expect(rows[0].value("note") == nil)
        }
    }

    @Test
    func recordedAndBuiltChangesAreEqualHashAlikeAndRoundTripThroughCodable() throws {
        let store = try DatabaseStore.inMemory()
        try makeTable(store)
        let (_, changes) = try store.writeCapturingChanges { db in
            try db.execute("INSERT INTO task(title) VALUES ('x')")
            try db.execute("UPDATE task SET done = 1")
        }
        let built = [
            RowChange(table: "task", operation: .insert, rowID: 1, old: nil, new: ["title": "x", "done": 0, "id": 1]),
            RowChange(table: "task", operation: .update, rowID: 1, old: ["done": 0, "id": 1, "title": "x"],
                      new: ["id": 1, "title": "x", "done": 1]),
        ]
        #expect(changes.rows == built)
        #expect(changes.rows.map(\.hashValue) == built.map(\.hashValue))
        #expect(changes.rows[1] != RowChange(table: "task", operation: .update, rowID: 1,
                                             old: ["done": 0, "id": 1, "title": "x"],
                                             new: ["id": 1, "title": "x", "done": 2]))
        let decoded = try JSONDecoder().decode([RowChange].self, from: JSONEncoder().encode(changes.rows))
        #expect(decoded == built)
        #expect(decoded[0].old == nil && decoded[1].old?["done"] == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func manyKeysFoldPerKeyInFirstTouchedOrder(kind: StoreKind) throws {
        try withContainer(kind) { container throws in
            let suite = container.suite()
            suite.set(-1, forKey: "key-5")
            let (_, changes) = try container.store.writeCapturingChanges { db in
                for index in 0..<40 { try suite.set(.integer(index), forKey: "key-\(index)", in: db) }
                // Touched again, before and after the fold switches from searching to its index.
                try suite.set(.integer(100), forKey: "key-3", in: db)
                try suite.set(.integer(300), forKey: "key-30", in: db)
                try suite.removeObject(forKey: "key-35", in: db)
                try suite.set(.integer(-1), forKey: "key-5", in: db)
                try suite.set(.integer(301), forKey: "key-30", in: db)
            }
            let expected = (0..<40).filter { $0 != 35 && $0 != 5 }.map { index in
                KeyChange(suite: "group.com.example.shared", key: "key-\(index)", old: nil,
                          new: .integer(index == 3 ? 100 : index == 30 ? 301 : index))
            }
            #expect(changes.keys == expected)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anUpdateReportsEachTextAfterItWhetherOrNotItChanged(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { db in
                try db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, a TEXT, b TEXT, c TEXT, d)")
                try db.execute("INSERT INTO note(a, b, c, d) VALUES ('abcd', '', 'same and longer than fifteen', 'x')")
            }
            let (_, changes) = try store.writeCapturingChanges { db in
                // Same length, other bytes; empty to empty; unchanged; text to integer.
                try db.execute("UPDATE note SET a = 'abce', d = 7")
            }
            #expect(changes.rows.count == 1)
            #expect(changes.rows.first?.old == ["id": 1, "a": "abcd", "b": "", "c": "same and longer than fifteen", "d": "x"])
            #expect(changes.rows.first?.new == ["id": 1, "a": "abce", "b": "", "c": "same and longer than fifteen", "d": 7])
        }
    }

    /// The hook keeps the names of the last few tables rather than copying each name again: changes to more tables
    /// than it keeps, in turns and with names past the small-string length, each still name their own table.
    @Test(arguments: StoreKind.allCases)
    func changesToManyTablesInTurnsNameTheirOwnTables(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let tables = (0..<11).map { "table_with_a_long_name_\($0)" }
            try store.write { db in
                for table in tables { try db.execute("CREATE TABLE \(table)(id INTEGER PRIMARY KEY, value INTEGER)") }
            }
            let order = (0..<3).flatMap { round in tables.indices.map { ($0 * 7 + round) % tables.count } }
            let (_, changes) = try store.writeCapturingChanges { db in
                for (step, index) in order.enumerated() {
                    try db.execute("INSERT INTO \(tables[index])(value) VALUES (?)", [.integer(Int64(step))])
                }
            }
            #expect(changes.rows.map(\.table) == order.map { tables[$0] })
            #expect(changes.rows.map { $0.new?["value"] } == order.indices.map { .integer(Int64($0)) })
        }
    }
}
