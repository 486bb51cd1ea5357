import Foundation
import Testing

extension DaemonTests {
    @Suite("The dashboard at /ui/")
    struct DashboardTests {
        static let files = ["index.html": "text/html; charset=utf-8", "dashboard.css": "text/css; charset=utf-8",
                            "dashboard.js": "text/javascript; charset=utf-8",
                            "widgets.js": "text/javascript; charset=utf-8", "taps.js": "text/javascript; charset=utf-8",
                            "stacks.js": "text/javascript; charset=utf-8",
                            "activities.js": "text/javascript; charset=utf-8"]

        @Test("/ redirects to /ui/, which serves the page; every file it loads is served with its type")
        func servesThePage() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let root = try await daemon.request("GET", "/")
            #expect(root.status == 303)
            #expect(root.header("Location") == "/ui/")
            #expect(root.body.isEmpty)

            let page = try await daemon.request("GET", "/ui/")
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.text.hasPrefix("<!doctype html>"))
            #expect(try await daemon.request("GET", "/ui").text == page.text)
            #expect(try await daemon.request("GET", "/ui/index.html").text == page.text)

            // Every file the page refers to is served, and nothing it refers to is fetched from elsewhere.
            // (`data:,` is the empty icon the page declares so that the browser asks for no /favicon.ico.)
            let referenced = Set(page.text.matches(of: /(?:src|href)="([^"#]+)"/).map { String($0.output.1) })
                .subtracting(["data:,"])
            #expect(referenced == Set(Self.files.keys.filter { $0 != "index.html" }.map { "/ui/" + $0 }))
            for (name, type) in Self.files {
                let file = try await daemon.request("GET", "/ui/" + name)
                #expect(file.status == 200, "\(name)")
                #expect(file.header("Content-Type") == type, "\(name)")
                #expect(file.body.count > 200, "\(name) has content")
                #expect(file.header("Cache-Control") == "no-cache")
                #expect(file.header("X-Content-Type-Options") == "nosniff")
                let policy = try #require(file.header("Content-Security-Policy"))
                #expect(policy.contains("default-src 'none'") && policy.contains("connect-src 'self'")
                        && policy.contains("script-src 'self'"))
                #expect(!file.text.contains("http://") && !file.text.contains("https://"), "\(name) loads nothing remote")
            }
        }

        @Test("an unknown file is a JSON 404 naming it; other methods are 405")
        func unknownFile() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let missing = try await daemon.request("GET", "/ui/secrets.json")
            #expect(missing.status == 404)
            #expect(missing.errorCode == "not_found")
            #expect((missing.json["detail"] as? [String: Any])?["file"] as? String == "secrets.json")
            #expect(try await daemon.request("GET", "/ui/..%2Fdashboard.js").status == 404)
            let posted = try await daemon.request("POST", "/ui/index.html", json: "{}")
            #expect(posted.status == 405)
        }

        @Test("with a token, the page's files need none and every /v1 request still does")
        func token() async throws {
            let daemon = try InProcessDaemon(token: "s3cret")
            defer { Task { await daemon.stop() } }
            #expect(try await daemon.request("GET", "/").status == 303)
            for name in Self.files.keys {
                #expect(try await daemon.request("GET", "/ui/" + name).status == 200, "\(name)")
            }
            #expect(try await daemon.request("GET", "/ui/").status == 200)
            // What the page's scripts ask for answers only with the token.
            for path in ["/v1/instances", "/v1/clock", "/v1/taps/report", "/v1/taps/heatmap.svg", "/v1/taps/series.svg",
                         "/v1/taps/unmatched", "/v1/stacks", "/v1/activities", "/v1/push/outbox", "/v1/push/decisions",
                         "/v1/device/pushes/unaddressed", "/v1/routes", "/v1/kinds", "/v1/openapi.json"] {
                let refused = try await daemon.request("GET", path)
                #expect(refused.status == 401, "\(path)")
                let answered = try await daemon.request("GET", path, headers: [("Authorization", "Bearer s3cret")])
                #expect(answered.status == 200, "\(path)")
            }
            // The file names are no secret (the page names them all): an unknown one is a 404 either way.
            #expect(try await daemon.request("GET", "/ui/nope").status == 404)
            #expect(try await daemon.request("GET", "/uix").status == 401, "a path beside the dashboard's needs the token")
        }
    }
}
