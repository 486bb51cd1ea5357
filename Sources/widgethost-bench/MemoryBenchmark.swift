import DeepLinks
import Foundation
import SharedState
import WidgetHost

/// `widgethost-bench memory`: resident memory of the daemon's engine and route table at scale: 10k routes and 100k
/// placed instances (1k configurations, the timelines benchmark's widget), after start and after
/// `reloadAllTimelines()`. Goal: ≤ 150 MB at both points.
///
/// A child process (this program with `memory --prepare DIR`) places the instances first, so the measured process
/// starts as a restarted daemon does: it opens an existing store and builds its route table, then reloads every
/// timeline. Resident memory is `VmRSS` from `/proc/self/status` (what `ps` and the OOM killer see).
enum MemoryBenchmark {
    static let routeCount = 10_000
    static let instanceCount = 100_000

    static func run(arguments: [String]) async throws {
        if let index = arguments.firstIndex(of: "--prepare"), index + 1 < arguments.count {
            let (engine, _) = try TimelineBenchmark.engine(in: URL(fileURLWithPath: arguments[index + 1]))
            try await engine.place(TimelineBenchmark.placements(instanceCount))
            return
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("widgethost-bench-memory-\(getpid())", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["memory", "--prepare", directory.path]
        try child.run()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else {
            throw BenchmarkUsage(message: "memory: preparing the store failed (\(child.terminationStatus))")
        }

        let atLaunch = residentMegabytes()
        var builder = RouteTableBuilder()
        builder.add(RouteTableGenerator(routeCount: routeCount, urlCount: 1).routes.map(\.definition))
        let table = try builder.build()
        let (engine, _) = try TimelineBenchmark.engine(in: directory)
        // Counted in SQL: a starting daemon does not load its instances.
        let placed = try engine.store.database.read { db in
            try db.scalar("SELECT count(*) FROM widget_instances", as: Int.self) ?? 0
        }
        let afterStart = residentMegabytes()
        let runs = try await engine.reloadAllTimelines()
        let afterReload = residentMegabytes()
        precondition(placed == instanceCount && runs.count == TimelineBenchmark.configurations,
                     "expected \(instanceCount) instances and one run per configuration")
        print("widgethost-bench memory: \(routeCount) routes, \(placed) instances in "
              + "\(TimelineBenchmark.configurations) configurations, VmRSS (goal <= 150 MB)")
        print("")
        print("at launch".padding(toLength: 44, withPad: " ", startingAt: 0) + String(format: "%.1f MB", atLaunch))
        print("after start (routes built, store opened)".padding(toLength: 44, withPad: " ", startingAt: 0)
              + String(format: "%.1f MB", afterStart))
        print("after reloadAllTimelines()".padding(toLength: 44, withPad: " ", startingAt: 0)
              + String(format: "%.1f MB", afterReload))
        withExtendedLifetime(table) {}
    }

    /// `VmRSS` of this process, in MB (10^6 bytes).
    static func residentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return .nan }
        return kilobytes * 1024 / 1_000_000
    }
}
