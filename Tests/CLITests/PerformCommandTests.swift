import Foundation
import JSON
import ProcessTestSupport
import SharedState
import Testing

/// `widgethost perform`, run as a user would: the built binary on a temporary data directory.
@Suite("widgethost perform")
struct PerformCommandTests {
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    static func binary() throws -> URL {
        let name = "widgethost"
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent(name),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name),
            packageRoot.appendingPathComponent(".build/debug").appendingPathComponent(name),
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: candidates.map(\.path).joined(separator: ", ")])
        }
        return found
    }

    static func run(_ arguments: [String], dataDirectory: URL) async throws -> Run {
        let finished = try await FinishedChild.run(try binary(), ["perform"] + arguments + ["--data-dir", dataDirectory.path])
        return Run(status: finished.status, output: finished.standardOutput, errors: finished.standardError)
    }

    @Test(.timeLimit(.minutes(1)))
    func performsRetriesDryRunsAndRefuses() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("PerformCommandTests-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let first = try await Self.run(["CompleteTaskIntent", "--param", "taskId=task-3", "--idempotency-key", "k"],
                                 dataDirectory: directory)
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output.contains("performed and committed"))
        #expect(first.output.contains("tasks rowid 3 update: completed 0 -> 1"))

        let retry = try await Self.run(["CompleteTaskIntent", "--param", "taskId=task-3", "--idempotency-key", "k"],
                                 dataDirectory: directory)
        #expect(retry.status == 0)
        #expect(retry.output.contains("replayed"))

        let dry = try await Self.run(["SetTaskCompletedIntent", "--param", "taskId=task-1", "--param", "completed=false",
                                "--dry-run", "--json"], dataDirectory: directory)
        #expect(dry.status == 0, "\(dry.errors)")
        let json = try JSONSerialization.jsonObject(with: Data(dry.output.utf8)) as? [String: Any]
        #expect(json?["dryRun"] as? Bool == true)
        #expect(((json?["changes"] as? [String: Any])?["rows"] as? [Any])?.count == 1)
        // The API's /v1 shape (its OpenAPI `IntentOutcome`), written from the same type: `performedAt` as a
        // date-time, `rowid` and `operation` on each row, `suite` on each key.
        #expect(Set(json?.keys ?? [:].keys) == ["intent", "parameters", "dryRun", "performedAt", "changes",
                                                 "requestedReloads", "plannedReloads", "reloads", "value",
                                                 "requestedControlReloads", "controlReloads"])
        let row = ((json?["changes"] as? [String: Any])?["rows"] as? [[String: Any]])?.first
        #expect(Set(row?.keys ?? [:].keys) == ["table", "operation", "rowid", "old", "new"])
        #expect((json?["performedAt"] as? String).map { (try? DateTimeText.date(from: $0)) != nil } == true)
        let again = try await Self.run(["SetTaskCompletedIntent", "--param", "taskId=task-1", "--param", "completed=false",
                                  "--dry-run"], dataDirectory: directory)
        #expect(again.output.contains("completed 1 -> 0"), "the dry run changed nothing")

        let failed = try await Self.run(["ToggleFavoriteIntent", "--param", "itemID=nope"], dataDirectory: directory)
        #expect(failed.status == 1)
        #expect(failed.errors.contains("ToggleFavoriteIntent failed"))
        #expect(try await Self.run(["NoSuchIntent"], dataDirectory: directory).status == 2)
        #expect(try await Self.run(["CompleteTaskIntent", "--param", "nope"], dataDirectory: directory).status == 2)
    }

    /// A one-shot perform marks its reloads done before the process exits; left owed, the next `widgethost`
    /// process on the data directory would run them again (and charge budgeted ones twice).
    @Test(.timeLimit(.minutes(1)))
    func theReloadsOfAOneShotPerformAreDoneWhenItExits() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("PerformCommandTests-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await Self.run(["CompleteTaskIntent", "--param", "taskId=task-3"], dataDirectory: directory)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("requested reloads: ProjectProgress"))

        let container = try AppGroupContainer(identifier: "group.com.example.widgethost.demo", dataDirectory: directory)
        let owed = try container.store.read { db in
            try db.query("SELECT requests, done_at FROM widgethost_owed_reloads").map {
                ($0.string("requests"), $0.double("done_at") != nil)
            }
        }
        #expect(owed.count == 1)
        #expect(owed.first?.0 == #"["ProjectProgress"]"#)
        #expect(owed.first?.1 == true, "marked done before the process exited")
    }
}

extension PerformCommandTests {
    /// The tapped widget's planned reload and its provider run, as the API names them (`instanceId`,
    /// `instanceIds`, `chargedInstanceIds`): one shape for a script moving between the CLI and the API.
    @Test(.timeLimit(.minutes(1)))
    func jsonIsTheAPIsShape() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("PerformCommandTests-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let placed = try await FinishedChild.run(try Self.binary(), ["stack", "create", "home", "tasks=TaskList/systemMedium",
                                                                     "--data-dir", directory.path])
        #expect(placed.status == 0, "\(placed.standardError)")

        let run = try await Self.run(["CompleteTaskIntent", "--param", "taskId=task-3", "--instance", "tasks", "--json"],
                                     dataDirectory: directory)
        #expect(run.status == 0, "\(run.errors)")
        let json = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        #expect(json?["instance"] as? String == "tasks")
        let planned = (json?["plannedReloads"] as? [[String: Any]])?.first
        #expect(Set(planned?.keys ?? [:].keys) == ["instanceId", "kind", "reason", "budgetExempt", "deferredByBudget"])
        #expect(planned?["instanceId"] as? String == "tasks")
        let reload = (json?["reloads"] as? [[String: Any]])?.first
        #expect(Set(reload?.keys ?? [:].keys) == ["instanceIds", "chargedInstanceIds", "reason", "ranAt", "outcome"])
    }
}
