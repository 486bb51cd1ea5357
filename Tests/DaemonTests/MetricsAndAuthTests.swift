import Foundation
import Testing
import WidgetHostServer

extension DaemonTests {
    @Suite("/healthz, /metrics and the bearer token")
    struct MetricsAndAuthTests {
        @Test("health, and engine counters next to the request counters")
        func metrics() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let health = try await daemon.request("GET", "/healthz")
            #expect(health.status == 200)
            #expect(health.json["status"] as? String == "ok")
            _ = try await daemon.request("POST", "/v1/instances", json: #"{"kind":"Daily","family":"systemSmall","id":"d"}"#)
            _ = try await daemon.request("POST", "/v1/clock/advance", json: #"{"seconds":86400}"#)
            let text = try await daemon.request("GET", "/metrics").text
            #expect(text.contains(#"widgethost_reloads_total{reason="configuration-changed"} 1"#))
            #expect(text.contains(#"widgethost_reloads_total{reason="scheduled"} 1"#))
            #expect(text.contains(#"widgethost_budget_deferrals_total{reason="scheduled"} 0"#))
            #expect(text.contains("widgethost_intents_performed_total 0"))
            #expect(text.contains(#"widgethost_http_requests_total{endpoint="POST /v1/instances",status="201"} 1"#))
            #expect(text.contains(#"widgethost_http_request_duration_seconds_bucket{endpoint="GET /healthz",le="+Inf"} 1"#))
        }

        @Test("budget deferrals are counted")
        func deferrals() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            _ = try await daemon.request("POST", "/v1/instances", json: #"{"kind":"Daily","family":"systemSmall","id":"d"}"#)
            for _ in 0..<49 { _ = try await daemon.request("POST", "/v1/kinds/Daily/reload") }
            #expect(daemon.daemon.context.metrics.reloads(reason: .kindReload) == 48)
            #expect(daemon.daemon.context.metrics.deferrals(reason: .kindReload) == 1)
            let state = try await daemon.request("GET", "/v1/instances/d")
            #expect((state.json["nextReload"] as? [String: Any])?["deferredByBudget"] as? Bool == true)
            #expect(state.objects("diagnostics").contains { $0["code"] as? String == "budget-exhausted" })
        }

        @Test("with a token, every request needs it, /healthz included")
        func token() async throws {
            let daemon = try InProcessDaemon(token: "s3cret")
            defer { Task { await daemon.stop() } }
            for path in ["/healthz", "/metrics", "/v1/kinds", "/v1/openapi.json"] {
                let missing = try await daemon.request("GET", path)
                #expect(missing.status == 401, "\(path)")
                #expect(missing.errorCode == "unauthorized")
                #expect(missing.header("WWW-Authenticate") == "Bearer")
                let wrong = try await daemon.request("GET", path, headers: [("Authorization", "Bearer nope")])
                #expect(wrong.status == 401)
                let right = try await daemon.request("GET", path, headers: [("Authorization", "Bearer s3cret")])
                #expect(right.status == 200)
            }
            let refused = try await daemon.request("POST", "/v1/instances",
                                                   json: #"{"kind":"Daily","family":"systemSmall"}"#)
            #expect(refused.status == 401)
            let list = try await daemon.request("GET", "/v1/instances", headers: [("Authorization", "Bearer s3cret")])
            #expect(list.objects("instances").isEmpty)
        }
    }
}
