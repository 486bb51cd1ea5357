import Foundation
import Testing

@Suite("widgethost stack and widgethost taps")
struct StackAndTapsCommandTests {
    @Test("stack create places demo widgets; stack rank names the top and its score parts")
    func stackCreateAndRank() async throws {
        let data = try CommandRunner.temporaryDirectory().path
        let created = try await CommandRunner.run(["stack", "create", "home", "p1=ProjectProgress/systemSmall?project=proj-launch",
                                             "daily=Daily/systemMedium", "--data-dir", data])
        #expect(created.status == 0, "stderr: \(created.standardError)")
        #expect(created.standardOutput.contains("created stack home: p1, daily"))
        let ranked = try await CommandRunner.run(["stack", "rank", "home", "--json", "--data-dir", data])
        #expect(ranked.status == 0, "stderr: \(ranked.standardError)")
        let json = try JSONSerialization.jsonObject(with: Data(ranked.standardOutput.utf8)) as? [String: Any]
        #expect(json?["top"] as? String == "p1")
        #expect((json?["instances"] as? [[String: Any]])?.count == 2)
        let missing = try await CommandRunner.run(["stack", "rank", "nope", "--data-dir", data])
        #expect(missing.status == 1 && missing.standardError.contains("no stack named 'nope'"))
        #expect(try await CommandRunner.run(["stack", "rank", "home", "--at", "yesterday", "--data-dir", data]).status == 2)
    }

    @Test("taps record routes and flags; taps report prints CSV, SVG and broken links")
    func tapsRecordAndReport() async throws {
        let data = try CommandRunner.temporaryDirectory().path
        let link = try await CommandRunner.run(["taps", "record", "myapp://task/task-1", "--kind", "TaskList", "--family",
                                          "accessoryCircular", "--source", "link", "--at", "2026-11-25T10:00:00Z",
                                          "--data-dir", data])
        #expect(link.status == 0, "stderr: \(link.standardError)")
        #expect(link.standardOutput.contains("route task.detail"))
        #expect(link.standardOutput.contains("link-on-family-without-links"))
        _ = try await CommandRunner.run(["taps", "record", "myapp://taks/task-1", "--kind", "TaskList", "--family",
                                   "systemMedium", "--source", "widgetURL", "--at", "2026-11-25T11:00:00Z",
                                   "--data-dir", data])
        let csv = try await CommandRunner.run(["taps", "report", "--group-by", "route,day", "--csv", "--data-dir", data])
        #expect(csv.standardOutput == "route,bucket_start,bucket,taps,suspicious\r\n"
            + "(unmatched),2026-11-25T00:00:00Z,2026-11-25,1,0\r\ntask.detail,2026-11-25T00:00:00Z,2026-11-25,1,1\r\n")
        let svg = try await CommandRunner.run(["taps", "report", "--svg", "--data-dir", data])
        #expect(svg.status == 0 && svg.standardOutput.hasPrefix("<?xml"))
        #expect(svg.standardOutput.contains("data-route=\"task.detail\""))
        // --json is the API's answer to GET /v1/taps/report (groupBy, timeZone, rows, totals).
        let json = try await CommandRunner.run(["taps", "report", "--group-by", "route,day", "--json", "--data-dir", data])
        let report = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect(report?["groupBy"] as? [String] == ["route"])
        #expect(report?["bucket"] as? String == "day")
        #expect(report?["totalTaps"] as? Int == 2)
        let rows = report?["rows"] as? [[String: Any]]
        #expect(rows?.map { $0["route"] as? String } == ["(unmatched)", "task.detail"])
        #expect(rows?.first?["bucketStart"] as? String == "2026-11-25T00:00:00Z")
        let broken = try await CommandRunner.run(["taps", "report", "--unmatched", "--data-dir", data])
        #expect(broken.standardOutput.contains("myapp://taks/task-1") && broken.standardOutput.contains("task.detail"))
        let bad = try await CommandRunner.run(["taps", "report", "--group-by", "week", "--data-dir", data])
        #expect(bad.status == 2 && bad.standardError.contains("cannot group by 'week'"))
    }
}
