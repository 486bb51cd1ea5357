import Foundation
import HTTPTestSupport
import FoundationNetworking
import Testing
import HTTPServer

@Suite("Bind policy and bearer tokens")
struct SecurityTests {
    @Test("a non-loopback address without a token is refused with a clear error", arguments: ["0.0.0.0", "::", "192.0.2.10"])
    func nonLoopbackNeedsToken(host: String) throws {
        let address = ListenAddress.tcp(host: host, port: 0)
        #expect(throws: ServerError.nonLoopbackWithoutToken(address)) {
            try TestServer.start(address: address)
        }
        let message = ServerError.nonLoopbackWithoutToken(address).description
        #expect(message.contains("without a bearer token"))
        #expect(message.contains(host))
    }

    @Test("a non-loopback address with a token is served")
    func nonLoopbackWithToken() async throws {
        let server = try TestServer.start(address: .tcp(host: "0.0.0.0", port: 0), token: "s3cret")
        let port = try #require(server.port)
        let client = try RawHTTPClient(.tcp(host: "127.0.0.1", port: port))
        let response = try await client.request("GET", "/healthz", headers: [("Authorization", "Bearer s3cret")])
        #expect(response.status == 200)
        await server.stop()
    }

    @Test("loopback addresses count as local, others do not")
    func loopbackClassification() {
        #expect(ListenAddress.loopback().isLocalOnly)
        #expect(ListenAddress.tcp(host: "127.8.0.1", port: 1).isLocalOnly)
        #expect(ListenAddress.loopbackIPv6().isLocalOnly)
        #expect(ListenAddress.unixSocket(path: "/tmp/x.sock").isLocalOnly)
        #expect(!ListenAddress.tcp(host: "0.0.0.0", port: 1).isLocalOnly)
        #expect(!ListenAddress.tcp(host: "10.0.0.1", port: 1).isLocalOnly)
        #expect(!ListenAddress.tcp(host: "127.0.0.1.evil", port: 1).isLocalOnly)
    }

    @Test("an address in use and a host name are reported as errors")
    func bindErrors() async throws {
        let first = try TestServer.start()
        let port = try #require(first.port)
        #expect(throws: ServerError.socket(operation: "bind", address: .loopback(port: port), errno: EADDRINUSE)) {
            try TestServer.start(address: .loopback(port: port))
        }
        #expect(throws: ServerError.self) {
            try TestServer.start(address: .tcp(host: "localhost", port: 0))
        }
        await first.stop()
    }

    @Test("with a token: 401 JSON without it or with a wrong one, 200 with the right one")
    func tokenEnforced() async throws {
        let handled = Tally()
        var router = HTTPRouter()
        router.post("/v1/things") { _, _ in
            handled.increment()
            return .json(["ok": true])
        }
        let server = try TestServer.start(router, token: "correct-horse")
        let client = try RawHTTPClient(server.address)

        let missing = try await client.request("GET", "/healthz")
        #expect(missing.status == 401)
        #expect(missing.header("WWW-Authenticate") == "Bearer")
        #expect(missing.json["code"] as? String == "unauthorized")
        #expect(missing.json["message"] as? String == "missing bearer token")
        #expect(missing.json.keys.contains("detail"))

        for wrong in ["Bearer correct-horsf", "Bearer correct-hors", "Bearer correct-horse2", "Basic correct-horse", "correct-horse"] {
            let response = try await client.request("GET", "/metrics", headers: [("Authorization", wrong)])
            #expect(response.status == 401, "\(wrong)")
            #expect(response.json["code"] as? String == "unauthorized")
        }

        // A rejected request with a body never reaches the handler.
        let rejectedPost = try await RawHTTPClient(server.address).request("POST", "/v1/things", body: Data("{}".utf8))
        #expect(rejectedPost.status == 401)
        #expect(handled.value == 0)

        let good = try await RawHTTPClient(server.address).request(
            "POST", "/v1/things", headers: [("authorization", "bearer correct-horse")], body: Data("{}".utf8)
        )
        #expect(good.status == 200)
        #expect(handled.value == 1)

        var request = URLRequest(url: try #require(URL(string: "\(server.address.baseURL)/healthz")))
        request.setValue("Bearer correct-horse", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        await server.stop()
    }

    @Test("with a token, only routes registered without one answer without it; unknown paths still need it")
    func routesWithoutToken() async throws {
        var router = HTTPRouter()
        router.addWithoutToken(.get, "/page/{file}") { _, parameters in .text("file " + (try parameters.require("file"))) }
        router.addSynchronous(.get, "/data") { _, _ in .text("secret") }
        let server = try TestServer.start(router, token: "correct-horse")
        let client = try RawHTTPClient(server.address)

        let page = try await client.request("GET", "/page/app.js")
        #expect(page.status == 200)
        #expect(page.text == "file app.js")
        #expect(try await client.request("HEAD", "/page/app.js").status == 200)
        let wrong = try await client.request("GET", "/page/app.js", headers: [("Authorization", "Bearer nope")])
        #expect(wrong.status == 200, "a token is not checked where none is asked for")
        #expect(try await client.request("GET", "/data").status == 401)
        #expect(try await client.request("GET", "/page").status == 401, "a path no route answers")
        #expect(try await client.request("POST", "/page/app.js").status == 401, "another method of the path")
        #expect(try await client.request("GET", "/metrics").status == 401)
        #expect(server.routes.routes.filter { !$0.requiresToken }.map(\.name) == ["GET /page/{file}"])
        await server.stop()
    }

    @Test("an empty or blank token is rejected as configuration")
    func badTokens() {
        #expect(throws: ServerError.self) { try TestServer.start(token: "") }
        #expect(throws: ServerError.self) { try TestServer.start(token: "has space") }
    }
}
