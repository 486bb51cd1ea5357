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
