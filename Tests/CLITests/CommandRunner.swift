import Foundation
import ProcessTestSupport

/// Runs the built `widgethost` binary as a user would, capturing its output and exit status.
struct CommandRunner {
    typealias Result = FinishedChild

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

    /// Runs `widgethost arguments...` in `directory` and waits for it, off Swift's cooperative pool; `input` is a
    /// file for its standard input.
    static func run(_ arguments: [String], in directory: URL? = nil,
                    environment: [String: String] = [:], input: URL? = nil) async throws -> Result {
        try await FinishedChild.run(try binary(), arguments, in: directory, environment: environment, input: input)
    }

    /// Runs `widgethost` with arguments given as bytes, passed as they are (an argument that is not UTF-8, say).
    static func run(bytes arguments: [[UInt8]]) async throws -> Result {
        try await FinishedChild.run(try binary(), argumentBytes: arguments)
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("widgethost-cli-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
