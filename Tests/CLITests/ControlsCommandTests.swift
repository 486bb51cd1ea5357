import Foundation
import Testing

@Suite("widgethost controls")
struct ControlsCommandTests {
    static let focus = "com.example.widgethost.focus"
    static let projectFocus = "com.example.widgethost.project-focus"

    @Test("place, toggle, list and reloads over the demo data; a retry with --key replays")
    func roundTrip() async throws {
        let data = try CommandRunner.temporaryDirectory().path
        let kinds = try await CommandRunner.run(["controls", "kinds", "--data-dir", data])
        #expect(kinds.status == 0, "stderr: \(kinds.standardError)")
        #expect(kinds.standardOutput.contains("\(Self.projectFocus)  toggle  intent FocusProjectIntent  configuration: project"))

        let placed = try await CommandRunner.run(["controls", "place", Self.focus, "--id", "focus", "--data-dir", data])
        #expect(placed.status == 0, "stderr: \(placed.standardError)")
        #expect(placed.standardOutput.contains("placed focus  \(Self.focus)  value false"))
        let configured = try await CommandRunner.run(["controls", "place", Self.projectFocus, "--id", "launch",
                                                      "--config", "project=proj-launch", "--data-dir", data])
        #expect(configured.status == 0, "stderr: \(configured.standardError)")

        let toggled = try await CommandRunner.run(["controls", "toggle", "launch", "on", "--key", "k1", "--json",
                                                   "--data-dir", data])
        #expect(toggled.status == 0, "stderr: \(toggled.standardError)")
        let outcome = try JSONSerialization.jsonObject(with: Data(toggled.standardOutput.utf8)) as? [String: Any]
        #expect(outcome?["value"] as? Bool == true)
        let perform = outcome?["perform"] as? [String: Any]
        #expect((perform?["controlReloads"] as? [[String: Any]])?.compactMap { $0["controlId"] as? String }
                == ["launch", "focus"])

        let list = try await CommandRunner.run(["controls", "list", "--data-dir", data])
        #expect(list.standardOutput.contains("focus  \(Self.focus)  value true"))
        #expect(list.standardOutput.contains(#"launch  \#(Self.projectFocus)  {"project":"proj-launch"}  value true"#))

        let retry = try await CommandRunner.run(["controls", "toggle", "launch", "on", "--key", "k1", "--data-dir", data])
        #expect(retry.status == 0, "stderr: \(retry.standardError)")
        #expect(retry.standardOutput.contains("replay"), "\(retry.standardOutput)")
        let reloads = try await CommandRunner.run(["controls", "reloads", "--json", "--data-dir", data])
        let logged = try JSONSerialization.jsonObject(with: Data(reloads.standardOutput.utf8)) as? [String: Any]
        #expect((logged?["reloads"] as? [[String: Any]])?.compactMap { $0["reason"] as? String }
                == ["placed", "placed", "performed", "kind_reload"])

        let removed = try await CommandRunner.run(["controls", "remove", "focus", "--data-dir", data])
        #expect(removed.status == 0 && removed.standardOutput.contains("removed control focus"))
    }

    @Test("refusals: exit 1 for what the engine refuses, exit 2 for bad arguments; nothing is changed")
    func refusals() async throws {
        let data = try CommandRunner.temporaryDirectory().path
        _ = try await CommandRunner.run(["controls", "place", Self.focus, "--id", "focus", "--data-dir", data])
        let cases: [([String], Int32, String)] = [
            (["controls", "place", Self.projectFocus, "--config", "project=nope"], 1, "no ProjectEntity 'nope'"),
            (["controls", "place", "com.example.nope"], 1, "no control kind 'com.example.nope'"),
            (["controls", "place", Self.focus, "--id", "focus"], 1, "already placed"),
            (["controls", "press", "focus"], 1, "is a toggle"),
            (["controls", "toggle", "ghost", "on"], 1, "no control 'ghost'"),
            (["controls", "toggle", "focus", "maybe"], 2, "toggle takes on or off"),
            (["controls", "place", Self.focus, "--config", "project"], 2, "--config needs name=value"),
            (["controls", "list", "--config", "a=b"], 2, "--config is for place only"),
            (["controls", "frobnicate"], 2, "unknown subcommand"),
        ]
        for (arguments, status, message) in cases {
            let result = try await CommandRunner.run(arguments + ["--data-dir", data])
            #expect(result.status == status, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
        }
        let list = try await CommandRunner.run(["controls", "list", "--json", "--data-dir", data])
        let controls = (try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [String: Any])?["controls"]
        #expect((controls as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["focus"])
        #expect((controls as? [[String: Any]])?.first?["value"] as? Bool == false)
    }
}
