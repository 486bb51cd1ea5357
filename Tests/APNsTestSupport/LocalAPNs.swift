import Foundation
import HTTPServer
import HTTPTestSupport

/// The local APNs stand-in (Tests/apns), started for one test in a directory of its own with a fresh team key.
public final class LocalAPNs: @unchecked Sendable {
    // @unchecked: every property is set in init and only read afterwards; the process is stopped once, in deinit or
    // stop(), which tests call from one task.
    public static let keyID = "ABC123DEFG"
    public static let teamID = "TEAM123456"
    public static let bundleID = "com.example.widgethost"

    public let directory: URL
    public let keyFile: String
    public let port: Int
    public let controlPort: Int
    public let caFile: String
    private let process: Process

    /// The repository's root, from this file's path.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Starts the stand-in (its first run makes the pinned venv: allow minutes) and waits for it to listen.
    public init(maxStreams: Int = 1000) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("apns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        keyFile = directory.appendingPathComponent("AuthKey_\(Self.keyID).p8").path
        try Self.run("/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256",
                                          "-out", keyFile])
        let state = directory.appendingPathComponent("state")
        let process = Process()
        process.executableURL = Self.root.appendingPathComponent("Tests/apns/local-apns")
        process.arguments = ["--state-dir", state.path, "--key", "\(Self.keyID)=\(keyFile)", "--team", Self.teamID,
                             "--topic", Self.bundleID, "--max-streams", String(maxStreams)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        self.process = process
        let ready = state.appendingPathComponent("ready.json")
        let deadline = Date().addingTimeInterval(300)
        var document: [String: Any]?
        while document == nil, process.isRunning, Date() < deadline {
            if let data = try? Data(contentsOf: ready) {
                document = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            }
            if document == nil { usleep(50_000) }
        }
        guard let document, let port = document["port"] as? Int, let controlPort = document["controlPort"] as? Int,
              let caFile = document["caFile"] as? String else {
            process.terminate()
            throw LocalAPNsError(description: "the local APNs did not start")
        }
        self.port = port
        self.controlPort = controlPort
        self.caFile = caFile
    }

    deinit { stop() }

    /// Stops the stand-in (SIGTERM) and removes its directory.
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops the stand-in but keeps its directory (its CA file): connecting to it is refused from now on.
    public func stopListening() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// The stand-in's origin for the sender.
    public var endpoint: URL { URL(string: "https://127.0.0.1:\(port)")! }

    /// One control request; the JSON answer.
    @discardableResult
    public func control(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> Any {
        let client = try RawHTTPClient(.tcp(host: "127.0.0.1", port: UInt16(controlPort)))
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let response = try client.requestBlocking(method, path, body: data)
        guard response.status == 200 else {
            throw LocalAPNsError(description: "control \(method) \(path): \(response.status) \(response.text)")
        }
        return try JSONSerialization.jsonObject(with: response.body)
    }

    public func stats() throws -> [String: Any] { try control("GET", "/stats") as? [String: Any] ?? [:] }

    /// Times each apns-id (lower case) was answered 200.
    public func deliveredIDs() throws -> [String: Int] { try control("GET", "/apns-ids") as? [String: Int] ?? [:] }

    public func pushes(limit: Int = 10_000) throws -> [[String: Any]] {
        try control("GET", "/pushes?limit=\(limit)") as? [[String: Any]] ?? []
    }

    public func providerTokens() throws -> [[String: Any]] { try control("GET", "/provider-tokens") as? [[String: Any]] ?? [] }

    public func script(_ command: [String: Any]) throws { try control("POST", "/script", command) }

    public func setClock(_ date: Date) throws { try control("POST", "/clock", ["now": date.timeIntervalSince1970]) }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw LocalAPNsError(description: "\(tool) \(arguments.first ?? "") failed")
        }
    }
}

/// The stand-in did not start, or refused a control request.
public struct LocalAPNsError: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}
