import Foundation
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
    func acknowledgedWritesSurviveSIGKILL() throws {
        let writer = try Self.crashWriterURL()
        try withTemporaryDirectory { directory in
            let identifier = "group.crash.test"
            var generator = SystemRandomNumberGenerator()
            var highestAcknowledged = 0
            for round in 1...10 {
                let process = Process()
                process.executableURL = writer
                process.arguments = [directory.path, identifier]
                let output = Pipe()
                let errors = Pipe()
                process.standardOutput = output
                process.standardError = errors
                let collected = LockedValue(Data())
                output.fileHandleForReading.readabilityHandler = { handle in
                    let chunk = handle.availableData
                    collected.mutate { $0.append(chunk) }
                }
                try process.run()
                // Wait for the first acknowledgement, then kill at a random moment after it.
                let start = Date()
                while collected.value.isEmpty && process.isRunning && Date().timeIntervalSince(start) < 10 {
                    usleep(2_000)
                }
                usleep(UInt32.random(in: 0...300_000, using: &generator))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                output.fileHandleForReading.readabilityHandler = nil
                let rest = output.fileHandleForReading.readDataToEndOfFile()
                collected.mutate { $0.append(rest) }
                let stderrText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                #expect(process.terminationReason == .uncaughtSignal, "round \(round): writer exited by itself: \(stderrText)")

                // Only complete lines are acknowledgements; a line cut by the kill is not.
                let text = String(decoding: collected.value, as: UTF8.self)
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
}
