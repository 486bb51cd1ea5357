import Foundation
import ProcessTestSupport
import SharedState
import Testing

/// Kills `intents-crashperformer` with SIGKILL at random moments during a stream of performs, restarts it on the
/// same container retrying the last keys, and checks that every acknowledged perform is present exactly once.
@Suite("Intent crash durability")
struct IntentCrashTests {
    static let group = "group.intents.crash"

    static func performerURL() throws -> URL {
        let name = "intents-crashperformer"
        var candidates: [URL] = []
        // The test runner (`WidgetHostPackageTests.xctest`) lives in the products directory.
        candidates.append(Bundle.main.bundleURL.appendingPathComponent(name))
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent(name))
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug").appendingPathComponent(name))
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        throw PerformerMissing(searched: candidates.map(\.path))
    }

    struct PerformerMissing: Error, CustomStringConvertible {
        let searched: [String]
        var description: String {
            "intents-crashperformer not found (run `swift build` before `swift test`); looked in: "
                + searched.joined(separator: ", ")
        }
    }

    /// One line of the performer's output.
    struct Acknowledgement: Hashable {
        var sequence: Int
        var replayed: Bool
    }

    @Test(.timeLimit(.minutes(1)))
    func acknowledgedPerformsSurviveSIGKILLAndRetriesDoNotReapply() async throws {
        let performer = try Self.performerURL()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("IntentCrashTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        var acknowledged = Set<Int>()
        var replays = 0
        var highest = 0
        for round in 1...8 {
            // Retry the last keys of the previous round: committed ones must replay, not apply again.
            let first = max(1, highest - 7)
            let (lines, stderrText) = try await runAndKill(performer, arguments: [directory.path, String(first), "4"],
                                                     round: round)
            try #require(!lines.isEmpty, "round \(round): no acknowledgement before the kill; stderr: \(stderrText)")
            for line in lines {
                acknowledged.insert(line.sequence)
                if line.replayed { replays += 1 }
                if line.replayed {
                    #expect(line.sequence < first + 64, "round \(round): only retried keys replay")
                }
            }
            highest = max(highest, lines.map(\.sequence).max() ?? 0)

            let container = try AppGroupContainer(identifier: Self.group, dataDirectory: directory)
            let (integrity, counts, completions) = try container.store.read { db in
                (try db.scalar("PRAGMA integrity_check", as: String.self),
                 try db.query("SELECT seq, COUNT(*) AS n FROM completion_log GROUP BY seq").map {
                     ($0.int("seq") ?? 0, $0.int("n") ?? 0)
                 },
                 try container.suite().value(forKey: "completions", in: db))
            }
            #expect(integrity == "ok", "round \(round)")
            let present = Dictionary(counts, uniquingKeysWith: +)
            let twice = present.filter { $0.value > 1 }.keys.sorted()
            #expect(twice.isEmpty, "round \(round): applied twice: \(twice.prefix(10))")
            let missing = acknowledged.filter { present[$0] == nil }.sorted()
            #expect(missing.isEmpty, "round \(round): acknowledged but missing: \(missing.prefix(10))")
            #expect(completions == .integer(present.values.reduce(0, +)), "round \(round): the counter matches the log")
        }
        #expect(acknowledged.count >= 16)
        #expect(replays > 0, "restarts retried keys that had committed")
    }

    /// Starts the performer, waits for its first acknowledgement, kills it at a random moment after, and returns
    /// its complete output lines. The waiting runs off Swift's cooperative pool (`runOffPool`).
    private func runAndKill(_ performer: URL, arguments: [String], round: Int) async throws
        -> (lines: [Acknowledgement], stderr: String) {
        let child = try await runOffPool {
            try KilledChild.run(performer, arguments: arguments, firstOutputTimeout: 20, maximumDelay: 250_000)
        }
        let stderrText = child.standardError
        #expect(child.reason == .uncaughtSignal, "round \(round): performer exited by itself: \(stderrText)")
        // Only complete lines are acknowledgements; a line cut by the kill is not.
        let text = String(decoding: child.output, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line in
            let parts = line.split(separator: " ")
            return parts.count == 2 ? Int(parts[0]).map { Acknowledgement(sequence: $0, replayed: parts[1] == "replayed") } : nil
        }
        return (lines, stderrText)
    }
}
