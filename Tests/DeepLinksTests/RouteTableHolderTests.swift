import Foundation
import Synchronization
import Testing
@testable import DeepLinks

@Suite("Swapping tables while matching")
struct RouteTableHolderTests {
    static func table(version: Int) throws(RouteLoadError) -> RouteTable {
        try RouteTable.parse("""
        route task
            pattern  myapp://task/(?<id>[0-9]+)
            target   Task\(version)
            example  myapp://task/1
        route v\(version)
            pattern  myapp://only\(version)
            target   V
            example  myapp://only\(version)
        """)
    }

    @Test("many threads match (owned and lent) while the table is swapped; every match sees one whole table")
    func concurrentSwap() async throws {
        let holder = RouteTableHolder(try Self.table(version: 0))
        let tables = try (0..<4).map { try Self.table(version: $0) }
        let inconsistencies = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                for round in 0..<400 { holder.replace(with: tables[round % 4]) }
                return 0
            }
            for worker in 0..<6 {
                group.addTask {
                    var bad = 0
                    for index in 0..<3_000 {
                        let table = holder.table
                        // Within one table, the target and the version-only route always agree;
                        // every other URL is read from a lent match, the table swapped meanwhile.
                        let url = "myapp://task/\(index + worker)"
                        let read = index.isMultiple(of: 2)
                            ? table.firstMatch(url).map { ($0.target, $0.parameter("id")) }
                            : try? table.withMatch(url) { ($0.target, $0.parameter("id")) }.get()
                        guard let (target, id) = read else { bad += 1; continue }
                        if table.firstMatch("myapp://only\(target.dropFirst(4))") == nil { bad += 1 }
                        if id != String(index + worker) { bad += 1 }
                        if index % 3 == 0, (try? holder.withMatch(url) { $0.parameter("id") }.get()) != id { bad += 1 }
                        if index % 5 == 0,
                           (try? Array(url.utf8).withUnsafeBufferPointer { bytes in
                               try holder.withMatch(utf8: bytes) { $0.parameter("id") }.get()
                           }) != id { bad += 1 }
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(inconsistencies == 0)
    }

    @Test("a bad table never replaces a good one")
    func badReloadKeepsGoodTable() throws {
        let holder = RouteTableHolder(try Self.table(version: 1))
        #expect(throws: RouteLoadError.self) {
            try holder.reload { () throws(RouteLoadError) in try RouteTable.parse("route broken\n  pattern (\n  target X\n  example myapp://x\n") }
        }
        #expect(holder.match("myapp://task/5").map(\.target) == .success("Task1"))
        try holder.reload { () throws(RouteLoadError) in try Self.table(version: 2) }
        #expect(holder.match("myapp://task/5").map(\.target) == .success("Task2"))
    }

    @Test("reloading from the holder's directory: new files are picked up, a bad or empty directory changes nothing")
    func directoryReload() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("a.routes")
        try "route task\n    pattern myapp://task/(?<id>[0-9]+)\n    target Task\n    example myapp://task/1\n"
            .write(to: first, atomically: true, encoding: .utf8)
        let holder = try RouteTableHolder(loading: directory.path)
        #expect(holder.directory == directory.path)
        #expect(holder.snapshot.generation == 1)
        #expect(holder.table.firstMatch("myapp://project/7") == nil)

        try "route project\n    pattern myapp://project/(?<id>[0-9]+)\n    target Project\n    example myapp://project/1\n"
            .write(to: directory.appendingPathComponent("b.routes"), atomically: true, encoding: .utf8)
        let reloaded = try holder.reload()
        #expect(reloaded.generation == 2)
        #expect(reloaded.table === holder.table)
        #expect(holder.match("myapp://project/7").map(\.routeName) == .success("project"))

        // A bad regex on line 2: every problem is reported where it is, and the table in use stays.
        try "route broken\n    pattern myapp://x/(?<id>[0-9+\n    target X\n    example myapp://x/1\n"
            .write(to: directory.appendingPathComponent("c.routes"), atomically: true, encoding: .utf8)
        let error = try #require(throws: RouteLoadError.self) { try holder.reload() }
        let problem = try #require(error.errors.first)
        #expect(problem.location.file == directory.appendingPathComponent("c.routes").path)
        #expect(problem.location.line == 2)
        #expect(problem.code == .badPattern)
        #expect(holder.snapshot.generation == 2)
        #expect(holder.match("myapp://project/7").map(\.routeName) == .success("project"))

        // Every file moved away: refused too, not swapped in as a table that routes nothing.
        for name in ["a.routes", "b.routes", "c.routes"] { try FileManager.default.removeItem(at: directory.appendingPathComponent(name)) }
        let empty = try #require(throws: RouteLoadError.self) { try holder.reload() }
        #expect(empty.errors.map(\.code) == [.io])
        #expect(empty.errors.first?.location == SourceLocation(file: directory.path, line: 1, column: 1))
        #expect(holder.snapshot.generation == 2)
        #expect(holder.match("myapp://task/3").map(\.routeName) == .success("task"))
    }

    @Test("a table whose examples lint rejects is refused at load and at reload, each finding where it is")
    func lintedReload() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "route task\n    pattern myapp://task/(?<id>[0-9]+)\n    target Task\n    example myapp://task/1\n"
            .write(to: directory.appendingPathComponent("a.routes"), atomically: true, encoding: .utf8)
        let holder = try RouteTableHolder(loading: directory.path)

        // Both parse; lint finds an example taken by an earlier route and one its own route refuses.
        let second = directory.appendingPathComponent("b.routes")
        try """
            route task.any
                pattern myapp://task/(?<id>[0-9a-z]+)
                target Any
                example myapp://task/7
                example myapp://task/x1
            route project
                pattern myapp://project/(?<id>[0-9]+)
                target Project
                example myapp://project/p1
            """.write(to: second, atomically: true, encoding: .utf8)
        #expect((try? RouteTable.load(directory: directory.path)) != nil)
        let error = try #require(throws: RouteLoadError.self) { try holder.reload() }
        #expect(error.errors.map(\.code) == [.exampleShadowed, .exampleMismatch])
        #expect(error.errors.map(\.location) == [SourceLocation(file: second.path, line: 4, column: 13),
                                                  SourceLocation(file: second.path, line: 9, column: 13)])
        #expect(error.errors.first?.message.contains("earlier route `task`") == true)
        #expect(holder.snapshot.generation == 1)
        #expect(holder.table.firstMatch("myapp://project/7") == nil)
        #expect(throws: RouteLoadError.self) { try RouteTableHolder(loading: directory.path) }

        // Only warnings (a route no example reaches is a load error, so: a pattern lint cannot reverse) swap in.
        try """
            route project
                pattern myapp://project/(?<id>[0-9]+)|myapp://p/(?<id2>[0-9]+)
                target Project
                example myapp://project/1
            """.write(to: second, atomically: true, encoding: .utf8)
        let reloaded = try holder.reload()
        #expect(reloaded.generation == 2)
        #expect(reloaded.table.lint().diagnostics.map(\.code) == [.notReversible])
        #expect(holder.match("myapp://project/7").map(\.routeName) == .success("project"))
    }

    @Test("a reload that starts while another builds waits for it, so the later one's table is the one left")
    func reloadsApplyInOrder() throws {
        let holder = RouteTableHolder(try Self.table(version: 0))
        let (older, newer) = (try Self.table(version: 1), try Self.table(version: 2))
        let building = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) {
            _ = try? holder.reload { () throws(RouteLoadError) in
                building.signal()
                release.wait()
                return older
            }
        }
        building.wait()
        DispatchQueue.global().async(group: done) { _ = try? holder.reload { () throws(RouteLoadError) in newer } }
        Thread.sleep(forTimeInterval: 0.2)
        // The second reload has not swapped its table in ahead of the first.
        #expect(holder.snapshot.generation == 1)
        release.signal()
        done.wait()
        #expect(holder.snapshot.generation == 3)
        #expect(holder.table === newer)
    }

    @Test("matching from many OS threads uses per-thread match data correctly")
    func threads() throws {
        let table = try Self.table(version: 3)
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in 0..<2_000 {
                let id = String(worker * 10_000 + index)
                if table.firstMatch("myapp://task/\(id)")?.parameters["id"] != id { failures.add(1, ordering: .relaxed) }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
    }
}
