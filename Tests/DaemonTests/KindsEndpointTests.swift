import Foundation
import Testing

extension DaemonTests {
    @Suite("GET /v1/kinds, parameter options, reloads")
    struct KindsEndpointTests {
        @Test("the catalog's kinds with their parameter schemas")
        func listsKinds() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let response = try await daemon.request("GET", "/v1/kinds")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            let kinds = response.objects("kinds")
            #expect(kinds.compactMap { $0["kind"] as? String } == ["ProjectProgress", "Daily", "TaskList"])
            let project = try #require((kinds.first?["parameters"] as? [[String: Any]])?.first)
            #expect(project["name"] as? String == "project")
            #expect(project["type"] as? String == "entity")
            #expect(project["entityType"] as? String == "ProjectEntity")
            #expect(project["hasOptions"] as? Bool == true)
        }

        @Test("one kind; an unknown kind is 404 unknown_kind")
        func oneKind() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let daily = try await daemon.request("GET", "/v1/kinds/Daily")
            #expect(daily.status == 200)
            #expect(daily.json["families"] as? [String] == ["systemSmall", "systemMedium", "systemLarge"])
            let missing = try await daemon.request("GET", "/v1/kinds/Nope")
            #expect(missing.status == 404)
            #expect(missing.errorCode == "unknown_kind")
            #expect(missing.isErrorBody)
        }

        @Test("entity options: suggestions, search, and the errors")
        func options() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let all = try await daemon.request("GET", "/v1/kinds/ProjectProgress/parameters/project/options")
            #expect(all.status == 200)
            #expect(all.objects("options").count >= 2)
            let search = try await daemon.request("GET", "/v1/kinds/ProjectProgress/parameters/project/options?query=thes")
            #expect(search.objects("options").compactMap { $0["value"] as? String } == ["proj-thesis"])
            let unknown = try await daemon.request("GET", "/v1/kinds/ProjectProgress/parameters/nope/options")
            #expect(unknown.status == 404)
            #expect(unknown.errorCode == "unknown_parameter")
            let unknownKind = try await daemon.request("GET", "/v1/kinds/Nope/parameters/project/options")
            #expect(unknownKind.errorCode == "unknown_kind")
        }

        @Test("reload a kind and reload all: provider runs charged to the budget")
        func reloads() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            _ = try await daemon.request("POST", "/v1/instances", json: #"{"kind":"Daily","family":"systemSmall","id":"d"}"#)
            _ = try await daemon.request("POST", "/v1/instances",
                                         json: #"{"kind":"TaskList","family":"systemMedium","id":"t"}"#)
            let kind = try await daemon.request("POST", "/v1/kinds/Daily/reload")
            #expect(kind.status == 200)
            let reloads = kind.objects("reloads")
            #expect(reloads.count == 1)
            #expect(reloads.first?["reason"] as? String == "kind-reload")
            #expect(reloads.first?["chargedInstanceIds"] as? [String] == ["d"])
            let all = try await daemon.request("POST", "/v1/reload")
            #expect(Set(all.objects("reloads").flatMap { $0["instanceIds"] as? [String] ?? [] }) == ["d", "t"])
            let budget = try await daemon.request("GET", "/v1/instances/d").json["budget"] as? [String: Any]
            #expect(budget?["used"] as? Int == 2)
            let unknown = try await daemon.request("POST", "/v1/kinds/Nope/reload")
            #expect(unknown.status == 404)
            #expect(unknown.errorCode == "unknown_kind")
        }
    }
}
