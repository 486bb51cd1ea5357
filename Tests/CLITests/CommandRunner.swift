import Foundation
import ProcessTestSupport

/// Runs the built `widgethost` binary as a user would, capturing its output and exit status.
struct CommandRunner {
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    struct BinaryMissing: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "widgethost not found (run `swift build` before `swift test`); looked in: "
                + searched.joined(separator: ", ")
        }
    }

    /// The executable in the build products directory next to the test bundle.
    static func binary(named name: String = "widgethost") throws -> URL {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent(name),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name),
            packageRoot.appendingPathComponent(".build/debug").appendingPathComponent(name),
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw BinaryMissing(searched: candidates.map(\.path))
        }
        return found
    }

    /// Runs `widgethost arguments...` in `directory` and waits for it, off Swift's cooperative pool.
    static func run(_ arguments: [String], in directory: URL? = nil,
                    environment: [String: String] = [:]) async throws -> Result {
        let binary = try binary()
        return try await runOffPool { try runBlocking(binary, arguments, in: directory, environment: environment) }
    }

    /// `run`, on the calling thread.
    private static func runBlocking(_ binary: URL, _ arguments: [String], in directory: URL?,
                                    environment: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        process.environment = merged
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes to the end before waiting, so a chatty child cannot block on a full pipe.
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      standardOutput: String(decoding: outData, as: UTF8.self),
                      standardError: String(decoding: errData, as: UTF8.self))
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("widgethost-cli-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
