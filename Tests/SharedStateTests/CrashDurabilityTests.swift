import Foundation
import ProcessTestSupport
import Testing
@testable import SharedState

/// Kills `sharedstate-crashwriter` with SIGKILL at random moments and checks that every write it
/// acknowledged survived, and that the file is intact.
@Suite("Crash durability")
struct CrashDurabilityTests {
    /// The crash writer next to the test bundle in the build products directory.
    static func crashWriterURL() throws -> URL {
        let name = "sharedstate-crashwriter"
        var candidates: [URL] = []
        // The test runner (`WidgetHostPackageTests.xctest`) lives in the products directory.
        candidates.append(Bundle.main.bundleURL.appendingPathComponent(name))
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name))
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug").appendingPathComponent(name))
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        throw CrashWriterMissing(searched: candidates.map(\.path))
    }

    struct CrashWriterMissing: Error, CustomStringConvertible {
        let searched: [String]
        var description: String {
            "sharedstate-crashwriter not found (run `swift build` before `swift test`); looked in: "
                + searched.joined(separator: ", ")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func acknowledgedWritesSurviveSIGKILL() async throws {
        let writer = try Self.crashWriterURL()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("CrashDurabilityTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let identifier = "group.crash.test"
        var highestAcknowledged = 0
        for round in 1...10 {
            // The waiting runs off Swift's cooperative pool (`runOffPool`).
            let child = try await runOffPool {
                try KilledChild.run(writer, arguments: [directory.path, identifier], firstOutputTimeout: 10, maximumDelay: 300_000)
            }
            let stderrText = child.standardError
            #expect(child.reason == .uncaughtSignal, "round \(round): writer exited by itself: \(stderrText)")

            // Only complete lines are acknowledgements; a line cut by the kill is not.
            let text = String(decoding: child.output, as: UTF8.self)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            let acknowledged = lines.compactMap { Int($0) }
            try #require(!acknowledged.isEmpty, "round \(round): no acknowledgement before the kill; stderr: \(stderrText)")
            #expect(acknowledged.first == highestAcknowledged + 1 || highestAcknowledged == 0 || acknowledged.first! > highestAcknowledged,
                    "round \(round): sequence continues")
            highestAcknowledged = max(highestAcknowledged, acknowledged.last!)

            let container = try AppGroupContainer(identifier: identifier, dataDirectory: directory)
            let (integrity, present, last) = try container.store.read { db in
                (try db.scalar("PRAGMA integrity_check", as: String.self),
                 try db.scalar("SELECT count(*) FROM crash_acks WHERE seq <= ?", [.integer(Int64(highestAcknowledged))],
                               as: Int.self),
                 try container.suite().value(forKey: "last", in: db))
            }
            #expect(integrity == "ok", "round \(round)")
            #expect(present == highestAcknowledged, "round \(round): every acknowledged write is present")
            if case .integer(let lastValue)? = last {
                #expect(lastValue >= highestAcknowledged, "round \(round)")
            } else {
                Issue.record("round \(round): key `last` missing")
            }
        }
        #expect(highestAcknowledged >= 10)
    }
}
