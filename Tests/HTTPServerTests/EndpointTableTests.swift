import Foundation
import HTTPTestSupport
import Testing
import HTTPServer

@Suite("Endpoint table and routing through the server")
struct RouteTableTests {
    private func table() -> EndpointTable {
        var router = HTTPRouter()
        let ok: HTTPHandler = { _, _ in .text("ok") }
        router.get("/v1/instances/{id}/entry", handler: ok)
        router.delete("/v1/instances/{id}", handler: ok)
        router.get("/v1/instances/{id}", handler: ok)
        router.get("/v1/kinds/search", handler: ok)
        router.get("/v1/kinds/{kind}", handler: ok)
        router.post("/v1/kinds/{kind}/reload", handler: ok)
        router.get("/v1/a/{x}/b", handler: ok)
        router.get("/v1/a/literal/c", handler: ok)
        router.get("/", handler: ok)
        router.post("/v1/routes/match", handler: ok)
        router.delete("/v1/routes/match", handler: ok)
        return router.build()
    }

    private func endpoint(_ match: EndpointTable.Match) -> String? {
        if case .found(let endpoint, _) = match { endpoint.name } else { nil }
    }

    @Test("templates with parameters resolve and capture decoded values")
    func captures() throws {
        let match = table().resolve(.get, path: "/v1/instances/inst%2F42%20x/entry")
        guard case .found(let route, let parameters) = match else {
            Issue.record("expected a route, got \(match)")
            return
        }
        #expect(route.name == "GET /v1/instances/{id}/entry")
        #expect(parameters["id"] == "inst/42 x")
        #expect(try parameters.require("id") == "inst/42 x")
        #expect(throws: APIError.self) { try parameters.require("nope") }
    }

    @Test("literal segments win over parameters; backtracking reaches the parameter branch")
    func literalPriority() {
        let routes = table()
        #expect(endpoint(routes.resolve(.get, path: "/v1/kinds/search")) == "GET /v1/kinds/search")
        #expect(endpoint(routes.resolve(.get, path: "/v1/kinds/daily")) == "GET /v1/kinds/{kind}")
        #expect(endpoint(routes.resolve(.get, path: "/v1/a/literal/b")) == "GET /v1/a/{x}/b")
        #expect(endpoint(routes.resolve(.get, path: "/v1/a/literal/c")) == "GET /v1/a/literal/c")
    }

    @Test("unknown paths are not found; known paths with another method list the allowed ones")
    func notFoundAndMethodNotAllowed() {
        let routes = table()
        if case .notFound = routes.resolve(.get, path: "/v1/nothing") {} else { Issue.record("expected notFound") }
        if case .notFound = routes.resolve(.get, path: "/v1/instances/1/entry/more") {} else { Issue.record("expected notFound") }
        guard case .methodNotAllowed(let allowed) = routes.resolve(.post, path: "/v1/instances/7") else {
            Issue.record("expected methodNotAllowed")
            return
        }
        #expect(allowed == [.delete, .get, .head])
    }

    /// What a resolution says, to compare two: the route's name and captures, the allowed methods, or not found.
    private func answer(_ match: EndpointTable.Match) -> String {
        switch match {
        case .found(let endpoint, let parameters):
            "\(endpoint.name) \(parameters.values.map { "\($0.name)=\($0.value)" })"
        case .methodNotAllowed(let allowed): "405 \(allowed.map(\.rawValue))"
        case .notFound: "404"
        }
    }

    /// Paths written exactly as a route's literal template are looked up whole; every other spelling of them walks
    /// the trie. Both must answer alike, for every method.
    @Test("a literal path looked up whole answers as its other spellings do, for every method")
    func literalPathsAgree() {
        let routes = table()
        for (literal, spellings) in [
            ("/", ["", "//"]),
            ("/v1/kinds/search", ["/v1/kinds/search/", "//v1/kinds//search", "/v1/kinds/%73earch", "/v1/%6Binds/search"]),
            ("/v1/a/literal/c", ["/v1/a/literal/c/", "/v1/a/%6Citeral/c"]),
            ("/v1/routes/match", ["/v1/routes/match/", "/v1//routes/match", "/v1/routes/%6Datch"]),
        ] {
            for method in [HTTPMethod.get, .head, .post, .put, .delete] {
                let whole = answer(routes.resolve(method, path: literal))
                for spelling in spellings {
                    #expect(answer(routes.resolve(method, path: spelling)) == whole, "\(method.rawValue) \(spelling)")
                }
            }
        }
        #expect(answer(routes.resolve(.post, path: "/v1/kinds/search")) == "405 [\"GET\", \"HEAD\"]")
        #expect(answer(routes.resolve(.head, path: "/v1/kinds/search")) == "GET /v1/kinds/search []")
        #expect(answer(routes.resolve(.get, path: "/v1/kinds/other")) == "GET /v1/kinds/{kind} [\"kind=other\"]")
        #expect(answer(routes.resolve(.get, path: "/v1/a/literal")) == "404")
    }

    @Test("HEAD uses the GET route; empty segments are ignored")
    func headAndSlashes() {
        let routes = table()
        #expect(endpoint(routes.resolve(.head, path: "/v1/kinds/daily")) == "GET /v1/kinds/{kind}")
        #expect(endpoint(routes.resolve(.get, path: "/v1//kinds/daily/")) == "GET /v1/kinds/{kind}")
    }

    @Test("through the server: path parameters reach the handler; 404 and 405 are JSON errors")
    func serverRouting() async throws {
        var router = HTTPRouter()
        router.get("/v1/instances/{id}/entry") { request, parameters in
            .json(["id": try parameters.require("id"), "at": request.query("at") ?? ""])
        }
        router.post("/v1/instances/{id}/entry") { _, _ in .text("posted") }
        let server = try TestServer.start(router)
        let client = try RawHTTPClient(server.address)

        let found = try await client.request("GET", "/v1/instances/a%20b/entry?at=2026-01-01T00:00:00Z")
        #expect(found.status == 200)
        #expect(found.text == #"{"at":"2026-01-01T00:00:00Z","id":"a b"}"#)

        let missing = try await client.request("GET", "/v1/nope")
        #expect(missing.status == 404)
        #expect(missing.header("Content-Type") == "application/json")
        #expect(missing.json["code"] as? String == "not_found")
        #expect(missing.json["message"] as? String == "no endpoint GET /v1/nope")

        let wrongMethod = try await client.request("DELETE", "/v1/instances/1/entry")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "GET, HEAD, POST")
        #expect(wrongMethod.json["code"] as? String == "method_not_allowed")
        #expect((wrongMethod.json["detail"] as? [String: Any])?["allowed"] as? [String] == ["GET", "HEAD", "POST"])

        let head = try await client.request("HEAD", "/healthz")
        #expect(head.status == 200)
        // Still usable after HEAD (no stray body bytes on the connection).
        #expect(try await client.request("GET", "/healthz").text == #"{"status":"ok"}"#)
        await server.stop()
    }
}
