import Foundation
import Testing

/// `widgethost push check` through the built binary: the demo catalog's `DeliveryAttributes` decides what decodes.
@Suite("widgethost push check")
struct PushCheckCommandTests {
    @Test("a string ETA is an error at its pointer (exit 1); the fixed payload passes (exit 0); bad usage exits 2")
    func check() async throws {
        let directory = try CommandRunner.temporaryDirectory()
        let broken = directory.appendingPathComponent("broken.json")
        try Data(#"{"aps":{"event":"update","timestamp":1772355660,"stale-date":1772359260,"content-state":{"status":"onTheWay","etaMinutes":"12","estimatedArrival":794050200}}}"#.utf8).write(to: broken)
        let fixed = directory.appendingPathComponent("fixed.json")
        try Data(#"{"aps":{"event":"update","timestamp":1772355660,"stale-date":1772359260,"content-state":{"status":"onTheWay","etaMinutes":12,"estimatedArrival":794050200}}}"#.utf8).write(to: fixed)

        let failing = try await CommandRunner.run(["push", "check", broken.path, "--attributes", "DeliveryAttributes",
                                                   "--json"])
        #expect(failing.status == 1, "stderr: \(failing.standardError)")
        let result = try JSONSerialization.jsonObject(with: Data(failing.standardOutput.utf8)) as? [String: Any]
        let findings = result?["findings"] as? [[String: Any]] ?? []
        #expect(findings.contains {
            $0["code"] as? String == "undecodable_content_state" && $0["pointer"] as? String == "/aps/content-state/etaMinutes"
        })
        let text = try await CommandRunner.run(["push", "check", broken.path])
        #expect(text.status == 1 && text.standardOutput.contains("undecodable_content_state"))

        let passing = try await CommandRunner.run(["push", "check", fixed.path, "--attributes", "DeliveryAttributes"])
        #expect(passing.status == 0, "\(passing.standardOutput) \(passing.standardError)")
        #expect(!passing.standardOutput.contains("error"))

        let unknown = try await CommandRunner.run(["push", "check", fixed.path, "--attributes", "Nope"])
        #expect(unknown.status == 2 && unknown.standardError.contains("'Nope'"))
        let missing = try await CommandRunner.run(["push", "check", directory.appendingPathComponent("none").path])
        #expect(missing.status == 3)
    }
}
