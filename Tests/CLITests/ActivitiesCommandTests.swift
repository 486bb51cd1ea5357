import Foundation
import Testing

/// `widgethost activities` over the demo engine of a data directory, through the built binary: the demo's
/// `DeliveryAttributes` started, updated by the app and by a push, ended, drawn; refusals and bad arguments.
@Suite("widgethost activities")
struct ActivitiesCommandTests {
    @Test("list is empty; start of an unknown type is refused with the reason; a push to an unknown token is ignored")
    func listStartPush() async throws {
        let data = try CommandRunner.temporaryDirectory().path
        let list = try await CommandRunner.run(["activities", "list", "--json", "--data-dir", data])
        #expect(list.status == 0, "stderr: \(list.standardError)")
        let listed = try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [String: Any]
        #expect((listed?["activities"] as? [Any])?.isEmpty == true)

        let start = try await CommandRunner.run(["activities", "start", "--type", "Nope", "--attributes", "{}",
                                                 "--content", "{}", "--data-dir", data])
        #expect(start.status == 1)
        #expect(start.standardError.contains("no activity attributes type is named 'Nope'"))

        let payload = try CommandRunner.temporaryDirectory().appendingPathComponent("push.json")
        try Data(#"{"aps":{"timestamp":1,"event":"update","content-state":{}}}"#.utf8).write(to: payload)
        let push = try await CommandRunner.run(["activities", "push", "--token", "00ff", "--payload", "@" + payload.path,
                                                "--json", "--data-dir", data])
        #expect(push.status == 0, "stderr: \(push.standardError)")
        let delivery = try JSONSerialization.jsonObject(with: Data(push.standardOutput.utf8)) as? [String: Any]
        #expect(delivery?["applied"] as? Bool == false)
        #expect((delivery?["results"] as? [[String: Any]])?.first?["reason"] as? String == "unknown_token")
        let text = try await CommandRunner.run(["activities", "push", "--channel", "news", "--payload",
                                                #"{"aps":{"timestamp":2,"event":"update"}}"#, "--data-dir", data])
        #expect(text.standardOutput.contains("(no activity): ignored unknown_token"))
    }

    @Test("a delivery's life: start with a token, a push applies, an undecodable one is ignored, end, screen, chart")
    func deliveryLife() async throws {
        let data = try CommandRunner.temporaryDirectory().path
        func run(_ arguments: [String]) async throws -> [String: Any] {
            let result = try await CommandRunner.run(["activities"] + arguments + ["--json", "--data-dir", data])
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            return try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any] ?? [:]
        }
        let state = #"{"status":"preparing","etaMinutes":30,"estimatedArrival":817324200}"#
        let started = try await run(["start", "--type", "DeliveryAttributes", "--push", "token",
                                     "--attributes", #"{"orderId":"ORD-2024-0001","courierName":"Sam"}"#,
                                     "--content", state])
        let id = try #require(started["id"] as? String)
        let tokens = try await run(["show", id])
        #expect(tokens["state"] as? String == "active")
        let token = try #require((try await run(["rotate-token", id]))["token"] as? String)

        let now = Int(Date().timeIntervalSince1970) + 5
        let update = #"{"aps":{"event":"update","timestamp":\#(now),"content-state":{"status":"onTheWay","etaMinutes":12,"estimatedArrival":817324500}}}"#
        let applied = try await run(["push", "--token", token, "--payload", update])
        #expect(applied["applied"] as? Bool == true)
        let wrong = #"{"aps":{"event":"update","timestamp":\#(now + 1),"content-state":{"status":"onTheWay","etaMinutes":"12","estimatedArrival":817324500}}}"#
        let ignored = try await run(["push", "--token", token, "--payload", wrong])
        #expect((ignored["results"] as? [[String: Any]])?.first?["reason"] as? String == "undecodable_content_state")

        let screen = try await run(["screen", id])
        let content = screen["content"] as? [String: Any]
        #expect((content?["state"] as? [String: Any])?["etaMinutes"] as? Int == 12)
        let ended = try await run(["end", id, "--dismissal", "immediate"])
        #expect(ended["outcome"] as? String == "applied")
        #expect((ended["activity"] as? [String: Any])?["state"] as? String == "dismissed")

        let chart = try await CommandRunner.run(["activities", "chart", id, "--data-dir", data])
        #expect(chart.status == 0, "stderr: \(chart.standardError)")
        #expect(chart.standardOutput.hasPrefix("<svg") || chart.standardOutput.hasPrefix("<?xml"))
        #expect(chart.standardOutput.contains("undecodable_content_state"))
        let types = try await run(["types"])
        #expect((types["types"] as? [[String: Any]])?.map { $0["name"] as? String } == ["DeliveryAttributes"])
    }

    @Test("APNs refusals exit 1; bad arguments exit 2; unknown ids exit 1")
    func refusals() async throws {
        let data = try CommandRunner.temporaryDirectory().path
        let large = #"{"aps":{"pad":"\#(String(repeating: "x", count: 4100))"}}"#
        let tooLarge = try await CommandRunner.run(["activities", "push", "--token", "00ff", "--payload", large,
                                                    "--data-dir", data])
        #expect(tooLarge.status == 1 && tooLarge.standardError.contains("PayloadTooLarge"))
        let badHex = try await CommandRunner.run(["activities", "push", "--token", "xyz", "--payload", "{}",
                                                  "--data-dir", data])
        #expect(badHex.status == 2 && badHex.standardError.contains("--token takes hex digits"))
        let priority = try await CommandRunner.run(["activities", "push", "--token", "00", "--priority", "7",
                                                    "--payload", "{}", "--data-dir", data])
        #expect(priority.status == 2)
        let json = try await CommandRunner.run(["activities", "start", "--type", "T", "--attributes", "{",
                                                "--content", "{}", "--data-dir", data])
        #expect(json.status == 2 && json.standardError.contains("--attributes is not JSON"))
        let channel = try await CommandRunner.run(["activities", "start", "--type", "T", "--attributes", "{}",
                                                   "--content", "{}", "--channel", "news", "--data-dir", data])
        #expect(channel.status == 2 && channel.standardError.contains("a channel id goes with push type"))
        let date = try await CommandRunner.run(["activities", "end", "some-id", "--dismissal", "2026-02-30T00:00:00Z",
                                                "--data-dir", data])
        #expect(date.status == 2 && date.standardError.contains("--dismissal"))
        for arguments in [["show", "nope"], ["screen", "nope"], ["rotate-token", "nope"], ["end", "nope"],
                          ["update", "nope", "--content", "{}"]] {
            let missing = try await CommandRunner.run(["activities"] + arguments + ["--data-dir", data])
            #expect(missing.status == 1, "\(arguments)")
            #expect(missing.standardError.contains("no activity has the id 'nope'"), "\(arguments)")
        }
        let state = try await CommandRunner.run(["activities", "list", "--state", "sleeping", "--data-dir", data])
        #expect(state.status == 2)
        #expect(try await CommandRunner.run(["activities", "fly", "--data-dir", data]).status == 2)
    }
}
