import Foundation
import HTTPServer
import HTTPTestSupport
import WidgetHostServer

/// The built `widgethost serve` running as a child process, as a user runs it.
///
/// Its stdout and stderr go to files in the data directory's parent, read by polling, so no test thread ever
/// blocks on a pipe (the cooperative pool has two threads here).
final class DaemonProcess: @unchecked Sendable {
    // @unchecked Sendable: `process` is only started in `init` and then signalled and waited on, which
    // Foundation's Process allows from any thread; the other members are immutable.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let process = Process()
    let address: ListenAddress
    let standardOutput: URL
    let standardError: URL

    /// Starts `widgethost serve --port 0 [--json] ARGUMENTS` and waits until it prints where it listens.
    /// - Parameter expectJSON: Pass `--json` and read the port from the JSON line; else read the plain
    ///   `widgethost listening on http://127.0.0.1:PORT` line.
    init(_ arguments: [String], logs directory: URL, expectJSON: Bool = true,
         timeout: Duration = .seconds(20)) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let tag = UUID().uuidString.prefix(8)
        standardOutput = directory.appendingPathComponent("serve-\(tag).out")
        standardError = directory.appendingPathComponent("serve-\(tag).err")
        _ = FileManager.default.createFile(atPath: standardOutput.path, contents: nil)
        _ = FileManager.default.createFile(atPath: standardError.path, contents: nil)
        process.executableURL = try Self.binary()
        process.arguments = ["serve", "--port", "0"] + (expectJSON ? ["--json"] : []) + arguments
        process.standardOutput = try FileHandle(forWritingTo: standardOutput)
        process.standardError = try FileHandle(forWritingTo: standardError)
        try process.run()

        let deadline = ContinuousClock.now + timeout
        var port: UInt16?
        while port == nil {
            let text = (try? String(contentsOf: standardOutput, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first {
                port = expectJSON ? Self.port(json: String(line)) : Self.port(banner: String(line))
            }
            if port != nil { break }
            guard process.isRunning, ContinuousClock.now < deadline else {
                let errors = (try? String(contentsOf: standardError, encoding: .utf8)) ?? ""
                process.isRunning ? process.terminate() : ()
                throw Failure(description: "widgethost serve did not start: \(errors)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        address = .loopback(port: port ?? 0)
    }

    private static func port(json line: String) -> UInt16? {
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return (object?["port"] as? Int).flatMap { UInt16(exactly: $0) }
    }

    private static func port(banner line: String) -> UInt16? {
        guard let colon = line.range(of: "127.0.0.1:", options: .backwards) else { return nil }
        return UInt16(line[colon.upperBound...].prefix { $0.isNumber })
    }

    /// Sends one request on a new connection.
    func request(_ method: String, _ target: String, json: String? = nil) async throws -> RawHTTPClient.Response {
        let client = try RawHTTPClient(address)
        let headers = json == nil ? [] : [("Content-Type", "application/json")]
        return try await client.request(method, target, headers: headers, body: json.map { Data($0.utf8) })
    }

    /// Sends `signal` and waits (polling) for the process to exit; returns its exit status.
    func stop(with signal: Int32 = SIGTERM, timeout: Duration = .seconds(60)) async throws -> Int32 {
        kill(process.processIdentifier, signal)
        return try await waitForExit(timeout: timeout)
    }

    /// Waits (polling) for the process to exit. The default is generous: a shutdown checkpoints every database, which
    /// on a loaded two-core machine has taken over 20 s; a daemon that never exits still fails.
    func waitForExit(timeout: Duration = .seconds(60)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                process.terminate()
                throw Failure(description: "widgethost serve did not exit in time")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationStatus
    }

    /// What the daemon wrote on stderr.
    var errorOutput: String { (try? String(contentsOf: standardError, encoding: .utf8)) ?? "" }

    /// The built `widgethost` (or another product of the package) next to the test bundle, or in `.build/debug`.
    static func binary(named name: String = "widgethost") throws -> URL {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent(name),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name),
            packageRoot.appendingPathComponent(".build/debug").appendingPathComponent(name),
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw Failure(description: "\(name) not built (run swift build); looked in \(candidates.map(\.path))")
        }
        return found
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("widgethost-serve-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
