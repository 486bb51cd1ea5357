import Foundation
@testable import SharedState
import Testing
@testable import WidgetHost

extension DaemonTests {
    @Suite("GET /v1/instances/{id}/reloads over a reload log written before its lists were interned")
    struct ReloadLogMigrationAPITests {
        @Test("the rows written before read through the API as they did: lists, charges (list, marker, none), order")
        func oldRowsThroughTheAPI() async throws {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("widgethost-daemon-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let t = InProcessDaemon.start.timeIntervalSince1970
            let key = WidgetEngine.configurationKey(kind: "Daily", family: "systemSmall", parameters: [:])
            do {
                // The engine's schema before the lists were interned, and rows as the engine wrote them then.
                var old = Migrator()
                let later = [ReloadLogSchema.internedServedListsMigrationName,
                             ReloadLogSchema.servedListByConfigurationMigrationName]
                for migration in EngineSchema.migrator.migrations where !later.contains(migration.name) {
                    old.registerMigration(migration.name, migration.apply)
                }
                let store = try DatabaseStore(path: directory.appendingPathComponent("widgethost.sqlite").path)
                try old.migrate(store)
                try store.write { db in
                    try db.execute("""
                        INSERT INTO configurations(key, kind, family, parameters) VALUES (?, 'Daily', 'systemSmall', '{}')
                        """, [.text(key)])
                    for id in ["a", "b"] {
                        try db.execute("""
                            INSERT INTO widget_instances(id, kind, family, raw_parameters, configuration_key, placed_at,
                                updated_at) VALUES (?, 'Daily', 'systemSmall', '{}', ?, ?, ?)
                            """, [.text(id), .text(key), .real(t - 7200), .real(t - 7200)])
                    }
                    let rows: [(String, Double, String, String)] = [
                        ("configuration-changed", t - 7200, #"["a"]"#, "[]"),
                        ("kind-reload", t - 3600, #"["a","b"]"#, #"["a","b"]"#),
                        ("scheduled", t - 1800, #"["a","b"]"#, "*"),
                    ]
                    for (reason, ranAt, served, charged) in rows {
                        try db.execute("""
                            INSERT INTO reload_log(configuration_key, reason, ran_at, instance_ids, charged_instance_ids,
                                outcome) VALUES (?, ?, ?, ?, ?, 'accepted')
                            """, [.text(key), .text(reason), .real(ranAt), .text(served), .text(charged)])
                    }
                }
            }
            let daemon = try InProcessDaemon(directory: directory)
            defer { Task { await daemon.stop() } }

            let a = try await daemon.request("GET", "/v1/instances/a/reloads")
            #expect(a.status == 200)
            let reloads = a.objects("reloads")
            #expect(reloads.map { $0["reason"] as? String } == ["scheduled", "kind-reload", "configuration-changed"])
            #expect(reloads.map { $0["instanceIds"] as? [String] ?? [] } == [["a", "b"], ["a", "b"], ["a"]])
            #expect(reloads.map { $0["chargedInstanceIds"] as? [String] ?? [] } == [["a", "b"], ["a", "b"], []])
            #expect(reloads.map { $0["ranAt"] as? String } == [
                "2026-03-01T08:30:00Z", "2026-03-01T08:00:00Z", "2026-03-01T07:00:00Z",
            ])
            let b = try await daemon.request("GET", "/v1/instances/b/reloads?limit=1")
            #expect(b.objects("reloads").map { $0["reason"] as? String } == ["scheduled"])

            // A reload after the migration comes first, naming the list the old rows interned.
            #expect(try await daemon.request("POST", "/v1/kinds/Daily/reload").status == 200)
            let after = try await daemon.request("GET", "/v1/instances/b/reloads").objects("reloads")
            #expect(after.map { $0["reason"] as? String } == ["kind-reload", "scheduled", "kind-reload"])
            #expect(after.first?["instanceIds"] as? [String] == ["a", "b"])
        }
    }
}
