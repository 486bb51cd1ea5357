import Foundation
import SharedState
import Testing

@Suite("widgethost demo and fixtures")
struct DemoCommandTests {
    @Test("fixtures load fills a fresh container and prints the counts")
    func fixturesLoad() async throws {
        let data = try CommandRunner.temporaryDirectory()
        let result = try await CommandRunner.run(["fixtures", "load", "--data-dir", data.path])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput.contains("projects: 4"))
        #expect(result.standardOutput.contains("tasks: 20"))
        let container = try AppGroupContainer(identifier: "group.com.example.widgethost.demo", dataDirectory: data)
        let titles = try container.store.read { db in
            try db.query("SELECT title FROM tasks WHERE id = 'task-1'").compactMap { $0.string("title") }
        }
        #expect(titles == ["Write landing copy"])
    }

    @Test("a broken fixture file is refused with the file and the place named, and nothing is loaded")
    func brokenFixture() async throws {
        let data = try CommandRunner.temporaryDirectory()
        let fixtures = try CommandRunner.temporaryDirectory()
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures")
        for name in ["projects", "tasks", "daily", "favorites"] {
            try FileManager.default.copyItem(at: source.appendingPathComponent("\(name).json"),
                                             to: fixtures.appendingPathComponent("\(name).json"))
        }
        try Data(#"[{"id": "task-1", "title": 7, "projectId": "proj-launch", "completed": false}]"#.utf8)
            .write(to: fixtures.appendingPathComponent("tasks.json"))
        let result = try await CommandRunner.run(["fixtures", "load", "--data-dir", data.path,
                                            "--fixtures", fixtures.path])
        #expect(result.status == 3)
        #expect(result.standardError.contains("tasks.json"))
        #expect(result.standardError.contains("[0].title"))
        let container = try AppGroupContainer(identifier: "group.com.example.widgethost.demo", dataDirectory: data)
        let tables = try container.store.read { db in
            try db.query("SELECT name FROM sqlite_master WHERE name = 'tasks'").count
        }
        #expect(tables == 0)
    }

    @Test("unknown commands and options exit 2 with usage")
    func usageErrors() async throws {
        let unknown = try await CommandRunner.run(["frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("unknown command 'frobnicate'"))
        let badOption = try await CommandRunner.run(["fixtures", "load", "--nope"])
        #expect(badOption.status == 2)
        #expect(badOption.standardError.contains("unknown option --nope"))
    }
}
