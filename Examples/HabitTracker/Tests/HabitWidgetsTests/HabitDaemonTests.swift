import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HabitWidgets
import Testing

/// The example's own daemon, built from `Sources/habits-host/main.swift`, answers the /v1 API over HTTP.
@Suite("habits-host daemon")
struct HabitDaemonTests {
    /// `.build/debug/habits-host` of this package (`swift test` builds it with the tests).
    static let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/habits-host")

    @Test("serves the habit kind and performs LogHabitIntent")
    func servesTheCatalog() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("habits-host-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        // The app's habit list, where the app keeps it: the App Group's directory under the data directory.
        let group = data.appendingPathComponent(HabitStore.appGroup)
        try FileManager.default.createDirectory(at: group, withIntermediateDirectories: true)
        try JSONEncoder().encode([HabitEntity(id: "water", name: "Drink water")])
            .write(to: group.appendingPathComponent("habits.json"))

        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["serve", "--port", "0", "--json", "--data-dir", data.path, "--clock", "virtual",
                             "--clock-start", "2024-05-01T09:00:00Z", "--log-level", "error"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let base = try Self.listeningURL(output.fileHandleForReading)

        let (kinds, kindsResponse) = try await URLSession.shared.data(from: URL(string: base + "/v1/kinds")!)
        #expect((kindsResponse as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: kinds, as: UTF8.self).contains("\"\(HabitWidgets.kind)\""))

        var request = URLRequest(url: URL(string: base + "/v1/intents/LogHabitIntent/perform")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"parameters":{"habitID":"water"}}"#.utf8)
        let (performed, performResponse) = try await URLSession.shared.data(for: request)
        let text = String(decoding: performed, as: UTF8.self)
        #expect((performResponse as? HTTPURLResponse)?.statusCode == 200, "\(text)")
        #expect(text.contains("habit_log"))

        // The same tap again is the intent's error, answered as the API's 422 `intent_failed`.
        let (_, againResponse) = try await URLSession.shared.data(for: request)
        #expect((againResponse as? HTTPURLResponse)?.statusCode == 422)
    }

    /// Reads the `--json` listening line and returns its `url`.
    static func listeningURL(_ handle: FileHandle) throws -> String {
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        let object = try JSONSerialization.jsonObject(with: line) as? [String: Any]
        return try #require(object?["url"] as? String, "no listening line: \(String(decoding: line, as: UTF8.self))")
    }
}
