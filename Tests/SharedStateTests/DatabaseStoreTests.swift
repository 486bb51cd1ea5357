import CSQLite
import Foundation
import Testing
@testable import SharedState

@Suite("DatabaseStore")
struct DatabaseStoreTests {
    @Test(arguments: StoreKind.allCases)
    func writeCommitsOrRollsBack(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { db in try db.execute("CREATE TABLE t(v INTEGER)") }
            let returned = try store.write { db -> Int in
                try db.execute("INSERT INTO t VALUES (1)")
                return 42
            }
            #expect(returned == 42)
            #expect(throws: Rollback.self) {
                try store.write { db in
                    try db.execute("INSERT INTO t VALUES (2)")
                    throw Rollback()
                }
            }
            let values = try store.read { db in try db.query("SELECT v FROM t").compactMap { $0.int("v") } }
            #expect(values == [1])
            // The writer is usable after a rollback, and not left inside a transaction.
            try store.write { db in
                #expect(db.isInTransaction)
                try db.execute("INSERT INTO t VALUES (3)")
            }
            #expect(try store.read { db in try db.scalar("SELECT count(*) FROM t", as: Int.self) } == 2)
        }
    }

    @Test func onDiskStoreIsVerifiedWALWithReadOnlyReaders() throws {
        try withStore(.onDisk) { store throws in
            #expect(!store.isInMemory)
            #expect(try store.read { db in try db.scalar("PRAGMA journal_mode", as: String.self) } == "wal")
            #expect(try store.write { db in try db.scalar("PRAGMA synchronous", as: Int.self) } == 2) // FULL
            try store.write { db in try db.execute("CREATE TABLE t(v)") }
            let error = #expect(throws: SQLiteError.self) {
                try store.read { db in try db.execute("INSERT INTO t VALUES (1)") }
            }
            #expect(error?.code == SQLITE_READONLY)
            try store.write { db in try db.execute("INSERT INTO t VALUES (1)") }
            let result = try store.checkpoint()
            #expect(result.isComplete)
            let walSize = try FileManager.default.attributesOfItem(atPath: store.path + "-wal")[.size] as? Int
            #expect(walSize == 0, "TRUNCATE checkpoint empties the log")
        }
    }

    @Test func synchronousIsConfigurable() throws {
        try withTemporaryDirectory { directory in
            let store = try DatabaseStore(path: directory.appendingPathComponent("n.sqlite").path,
                                          configuration: .init(synchronous: .normal))
            #expect(try store.write { db in try db.scalar("PRAGMA synchronous", as: Int.self) } == 1)
        }
    }

    @Test func readSeesOneSnapshotWhileWriterCommits() throws {
        try withStore(.onDisk) { store throws in
            try store.write { db in
                try db.execute("CREATE TABLE t(v)")
                try db.execute("INSERT INTO t VALUES (1)")
            }
            let (before, after) = try store.read { db -> (Int?, Int?) in
                let before = try db.scalar("SELECT count(*) FROM t", as: Int.self)
                try store.write { db in try db.execute("INSERT INTO t VALUES (2)") }
                return (before, try db.scalar("SELECT count(*) FROM t", as: Int.self))
            }
            #expect(before == 1)
            #expect(after == 1, "a read transaction keeps its snapshot")
            #expect(try store.read { db in try db.scalar("SELECT count(*) FROM t", as: Int.self) } == 2)
        }
    }

    @Test(arguments: ["not a database, just text that is long enough to look like a header" + String(repeating: "x", count: 400),
                      String(repeating: "\u{1}", count: 4096)])
    func corruptFileIsRefusedAndLeftUntouched(contents: String) throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("group.bad.sqlite")
            let bytes = Data(contents.utf8)
            try bytes.write(to: file)
            let error = #expect(throws: SQLiteError.self) {
                _ = try DatabaseStore(path: file.path)
            }
            #expect(error?.code == SQLITE_NOTADB)
            #expect(error?.description.contains(file.path) == true)
            #expect(error?.description.contains("not a database") == true)
            #expect(try Data(contentsOf: file) == bytes, "the file must not be modified")
            // Through the container, the same clear error.
            let containerError = #expect(throws: SQLiteError.self) {
                _ = try AppGroupContainer(identifier: "group.bad", dataDirectory: directory)
            }
            #expect(containerError?.code == SQLITE_NOTADB)
            #expect(try Data(contentsOf: file) == bytes, "the file must not be modified")
        }
    }

    @Test func missingDirectoryIsAClearError() throws {
        let error = #expect(throws: SQLiteError.self) {
            _ = try DatabaseStore(path: "/nonexistent-\(UUID().uuidString)/x.sqlite")
        }
        #expect(error?.code == SQLITE_CANTOPEN)
    }

    /// 8 writer threads and 8 reader threads: every transaction bumps two counters and appends a
    /// log row; readers must always see the three agree, and nothing may be lost.
    @Test(arguments: StoreKind.allCases)
    func concurrentWritersAndReadersSeeWholeTransactions(kind: StoreKind) throws {
        try withStore(kind, readerCount: 4) { store throws in
            try store.write { db in
                try db.execute("CREATE TABLE counter(id INTEGER PRIMARY KEY, a INTEGER NOT NULL, b INTEGER NOT NULL)")
                try db.execute("CREATE TABLE log(writer INTEGER NOT NULL, n INTEGER NOT NULL)")
                try db.execute("INSERT INTO counter VALUES (1, 0, 0)")
            }
            let deadline = Date().addingTimeInterval(2)
            let writesDone = LockedValue(0)
            let readsDone = LockedValue(0)
            let problems = LockedValue<[String]>([])
            let group = DispatchGroup()
            for writer in 0..<8 {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    var n = 0
                    while Date() < deadline {
                        do {
                            try store.write { db in
                                try db.execute("UPDATE counter SET a = a + 1 WHERE id = 1")
                                try db.execute("INSERT INTO log VALUES (?, ?)", [.integer(Int64(writer)), .integer(Int64(n))])
                                try db.execute("UPDATE counter SET b = b + 1 WHERE id = 1")
                            }
                            n += 1
                        } catch {
                            problems.mutate { $0.append("writer \(writer): \(error)") }
                            return
                        }
                    }
                    writesDone.mutate { $0 += n }
                }
            }
            for reader in 0..<8 {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    var n = 0
                    while Date() < deadline {
                        do {
                            let (a, b, logged) = try store.read { db in
                                let row = try db.queryOne("SELECT a, b FROM counter WHERE id = 1")
                                let logged = try db.scalar("SELECT count(*) FROM log", as: Int.self)
                                return (row?.int("a"), row?.int("b"), logged)
                            }
                            if a != b || a != logged {
                                problems.mutate { $0.append("reader \(reader) saw a=\(a as Any) b=\(b as Any) log=\(logged as Any)") }
                                return
                            }
                            n += 1
                        } catch {
                            problems.mutate { $0.append("reader \(reader): \(error)") }
                            return
                        }
                    }
                    readsDone.mutate { $0 += n }
                }
            }
            group.wait()
            #expect(problems.value.isEmpty, "\(problems.value.prefix(5))")
            let total = writesDone.value
            #expect(total > 0)
            #expect(readsDone.value > 0)
            let row = try store.read { db in try db.queryOne("SELECT a, b, (SELECT count(*) FROM log) AS logged FROM counter") }
            #expect(row?.int("a") == total, "no lost write")
            #expect(row?.int("b") == total)
            #expect(row?.int("logged") == total)
            let perWriter = try store.read { db in
                try db.query("SELECT writer, count(*) AS c, max(n) AS m FROM log GROUP BY writer")
            }
            for entry in perWriter {
                #expect(entry.int("c") == (entry.int("m") ?? -1) + 1, "each writer's sequence is complete")
            }
        }
    }
}
