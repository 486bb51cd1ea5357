import Foundation
import Testing
@testable import SharedState

/// Write sessions: one transaction held across async work, savepoints that report their own changes, and the
/// guards that turn would-be deadlocks into errors.
@Suite("Write sessions")
struct WriteSessionTests {
    private func withAsyncStore<T>(_ kind: StoreKind, _ body: (DatabaseStore) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("WriteSessionTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = kind == .inMemory
            ? try DatabaseStore.inMemory()
            : try DatabaseStore(path: directory.appendingPathComponent("test.sqlite").path)
        try store.write { db in
            try db.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        }
        return try await body(store)
    }

    private func names(_ store: DatabaseStore) throws -> [String] {
        try store.read { db in try db.query("SELECT name FROM item ORDER BY id").compactMap { $0.string("name") } }
    }

    @Test(arguments: StoreKind.allCases)
    func commitsWorkThatSuspends(kind: StoreKind) async throws {
        try await withAsyncStore(kind) { store in
            let count = try await store.withWriteSession { session in
                try session.withDatabase { db in try db.execute("INSERT INTO item(name) VALUES ('a')") }
                try await Task.sleep(for: .milliseconds(5))
                try await Task.detached {
                    try session.withDatabase { db in try db.execute("INSERT INTO item(name) VALUES ('b')") }
                }.value
                return try session.withDatabase { db in try db.scalar("SELECT count(*) FROM item", as: Int.self) }
            }
            #expect(count == 2)
            #expect(try names(store) == ["a", "b"])
        }
    }

    @Test("the revision moves on with every write transaction, whichever way it ends, and never with a read",
          arguments: StoreKind.allCases)
    func revisionCountsWrites(kind: StoreKind) async throws {
        struct Refused: Error {}
        try await withAsyncStore(kind) { store in
            let start = store.revision
            _ = try names(store)
            #expect(store.revision == start)
            try store.write { db in try db.execute("INSERT INTO item(name) VALUES ('a')") }
            #expect(store.revision == start + 1)
            _ = try store.writeCapturingChanges { db in try db.execute("INSERT INTO item(name) VALUES ('b')") }
            #expect(store.revision == start + 2)
            try await store.withWriteSession { session in
                try session.withDatabase { db in try db.execute("INSERT INTO item(name) VALUES ('c')") }
            }
            #expect(store.revision == start + 3)
            await #expect(throws: Refused.self) {
                try await store.withWriteSession { _ in throw Refused() }
            }
            #expect(throws: Refused.self) { try store.write { _ in throw Refused() } }
            #expect(store.revision == start + 5)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func throwingBodyRollsEverythingBack(kind: StoreKind) async throws {
        try await withAsyncStore(kind) { store in
            await #expect(throws: Rollback.self) {
                try await store.withWriteSession { session in
                    try session.withDatabase { db in try db.execute("INSERT INTO item(name) VALUES ('gone')") }
                    await Task.yield()
                    throw Rollback()
                }
            }
            #expect(try names(store).isEmpty)
            // The writer is free again.
            try store.write { db in try db.execute("INSERT INTO item(name) VALUES ('after')") }
            #expect(try names(store) == ["after"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func savepointsReportTheirOwnChangesAndFailuresUndoOnlyThemselves(kind: StoreKind) async throws {
        try await withAsyncStore(kind) { store in
            try await store.withWriteSession { session in
                let first = try await session.savepoint {
                    try session.withDatabase { db in try db.execute("INSERT INTO item(name) VALUES ('first')") }
                }
                #expect(first.changes.rows.map { $0.new?["name"] } == [.text("first")])
                await #expect(throws: Rollback.self) {
                    _ = try await session.savepoint {
                        try session.withDatabase { db in try db.execute("INSERT INTO item(name) VALUES ('failed')") }
                        await Task.yield()
                        throw Rollback()
                    }
                }
                let dry = try await session.savepoint(rollingBack: true) {
                    try session.withDatabase { db in try db.execute("UPDATE item SET name = 'renamed'") }
                }
                #expect(dry.changes.rows.map(\.operation) == [.update])
                #expect(dry.changes.rows.first?.old?["name"] == .text("first"))
                let last = try await session.savepoint {
                    try session.withDatabase { db in try db.execute("INSERT INTO item(name) VALUES ('last')") }
                }
                #expect(last.changes.rows.count == 1, "earlier savepoints' changes are not repeated")
            }
            #expect(try names(store) == ["first", "last"])
        }
    }

    @Test("a session records only what savepoints reporting their changes enclose, nested ones included",
          arguments: StoreKind.allCases)
    func changesAreRecordedInsideReportingSavepointsOnly(kind: StoreKind) async throws {
        try await withAsyncStore(kind) { store in
            try await store.withWriteSession { session in
                try session.withDatabase { db in try db.execute("INSERT INTO item(name) VALUES ('outside')") }
                let bookkeeping = try await session.savepoint(reportingChanges: false) {
                    try session.withDatabase { db in try db.execute("INSERT INTO item(name) VALUES ('quiet')") }
                    return try session.withDatabase { db in db.changeRecorder?.mark ?? -1 }
                }
                #expect(bookkeeping.value == 0, "nothing recorded outside a reporting savepoint")
                #expect(bookkeeping.changes.rows.isEmpty)
                let reported = try await session.savepoint {
                    try session.withDatabase { db in
                        try db.execute("UPDATE item SET name = 'a' WHERE name = 'outside'")
                    }
                    _ = try await session.savepoint(reportingChanges: false) {
                        try session.withDatabase { db in try db.execute("INSERT INTO item(name) VALUES ('inner')") }
                    }
                    await #expect(throws: Rollback.self) {
                        _ = try await session.savepoint(reportingChanges: false) {
                            try session.withDatabase { db in
                                try db.execute("INSERT INTO item(name) VALUES ('undone')")
                            }
                            throw Rollback()
                        }
                    }
                }
                #expect(reported.changes.rows.map(\.operation) == [.update, .insert])
                #expect(reported.changes.rows.map { $0.new?["name"] } == [.text("a"), .text("inner")])
                let after = try await session.savepoint(reportingChanges: false) {
                    try session.withDatabase { db in try db.execute("DELETE FROM item WHERE name = 'quiet'") }
                    return try session.withDatabase { db in db.changeRecorder?.mark ?? -1 }
                }
                #expect(after.value == 2, "recording stops again when the reporting savepoint closes")
            }
            #expect(try names(store) == ["a", "inner"])
        }
    }

    @Test("one savepoint in two steps reports the first step's changes only, and keeps or undoes both together",
          arguments: StoreKind.allCases)
    func twoStepSavepointReportsItsFirstStepAndRollsBackBoth(kind: StoreKind) async throws {
        try await withAsyncStore(kind) { store in
            try await store.withWriteSession { session in
                let marks = try await session.savepoint(reportingChangesOf: {
                    try session.withDatabase { db in try db.execute("INSERT INTO item(name) VALUES ('work')") }
                    return "body"
                }, then: { value, changes in
                    #expect(value == "body")
                    #expect(changes.rows.map(\.operation) == [.insert])
                    #expect(changes.rows.map { $0.new?["name"] } == [.text("work")])
                    let before = try session.withDatabase { db in db.changeRecorder?.mark ?? -1 }
                    try session.withDatabase { db in try db.execute("INSERT INTO item(name) VALUES ('record')") }
                    let after = try session.withDatabase { db in db.changeRecorder?.mark ?? -1 }
                    return (before, after)
                })
                #expect(marks.0 == marks.1, "the second step's writes are not recorded")
                await #expect(throws: Rollback.self) {
                    _ = try await session.savepoint(reportingChangesOf: {
                        try session.withDatabase { db in try db.execute("INSERT INTO item(name) VALUES ('undone')") }
                    }, then: { _, _ in
                        try session.withDatabase { db in
                            try db.execute("INSERT INTO item(name) VALUES ('undone record')")
                        }
                        throw Rollback()
                    })
                }
                let nested = try await session.savepoint {
                    try await session.savepoint(reportingChangesOf: {
                        try session.withDatabase { db in
                            try db.execute("UPDATE item SET name = 'w' WHERE name = 'work'")
                        }
                    }, then: { _, changes in changes.rows.count })
                }
                #expect(nested.value == 1)
                #expect(nested.changes.rows.map(\.operation) == [.update],
                        "an enclosing reporting savepoint still sees the first step's changes")
            }
            #expect(try names(store) == ["w", "record"])
        }
    }

    /// Outcome of one attempted call: whether it threw a misuse error.
    private static func misuse(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return false
        } catch let error as SQLiteError {
            return error.code == 21 // SQLITE_MISUSE
        } catch {
            return false
        }
    }

    @Test(arguments: StoreKind.allCases)
    func writeFromInsideTheSessionThrowsInsteadOfDeadlocking(kind: StoreKind) async throws {
        try await withAsyncStore(kind) { store in
            let (write, read, nested) = try await store.withWriteSession { session in
                (Self.misuse { try store.write { _ in } },
                 Self.misuse { _ = try store.read { db in try db.scalar("SELECT count(*) FROM item", as: Int.self) } },
                 Self.misuse { try session.withDatabase { _ in try session.withDatabase { _ in } } })
            }
            #expect(write)
            // On disk, reads inside a session work (they see committed data); in memory they would wait for the
            // session, so they are refused.
            #expect(read == store.isInMemory)
            #expect(nested, "nested use of the session's own connection is refused")
        }
    }

    @Test
    func sessionIsUnusableAfterItEnds() async throws {
        try await withAsyncStore(.onDisk) { store in
            let escaped = try await store.withWriteSession { $0 }
            #expect(throws: SQLiteError.self) { try escaped.withDatabase { _ in } }
        }
    }

    @Test
    func writesFromOtherThreadsWaitForTheSession() async throws {
        try await withAsyncStore(.onDisk) { store in
            let started = LockedValue(false)
            let writer = Task.detached {
                while !started.value { usleep(500) }
                try store.write { db in try db.execute("INSERT INTO item(name) VALUES ('outside')") }
            }
            try await store.withWriteSession { session in
                try session.withDatabase { db in try db.execute("INSERT INTO item(name) VALUES ('session')") }
                started.mutate { $0 = true }
                try await Task.sleep(for: .milliseconds(50))
                // The outside write has not slipped into the middle of the session.
                #expect(try session.withDatabase { db in try db.scalar("SELECT count(*) FROM item", as: Int.self) } == 1)
            }
            try await writer.value
            #expect(try names(store) == ["session", "outside"])
        }
    }

    @Test
    func concurrentSessionsRunOneAfterAnother() async throws {
        try await withAsyncStore(.onDisk) { store in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await store.withWriteSession { session in
                            let count = try session.withDatabase { db in
                                try db.scalar("SELECT count(*) FROM item", as: Int.self) ?? 0
                            }
                            await Task.yield()
                            try session.withDatabase { db in
                                try db.execute("INSERT INTO item(name) VALUES (?)", [.text("\(index):\(count)")])
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            // Each session saw all earlier ones: the counts read inside are 0...7 exactly once.
            let seen = try names(store).compactMap { $0.split(separator: ":").last.flatMap { Int($0) } }
            #expect(seen.sorted() == Array(0..<8))
        }
    }
}
