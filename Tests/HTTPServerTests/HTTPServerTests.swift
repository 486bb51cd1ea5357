import Foundation
import HTTPTestSupport
import FoundationNetworking
import Testing
import HTTPServer

@Suite("HTTPServer against real clients")
struct HTTPServerTests {
    static let bridgings: [HandlerBridging] = [.inlineThenSuspend, .suspendResume, .blockWorker]

    @Test("GET /healthz answers 200 {\"status\":\"ok\"} through URLSession", arguments: bridgings)
    func healthzThroughURLSession(bridging: HandlerBridging) async throws {
        let server = try TestServer.start(bridging: bridging)
        let url = try #require(URL(string: "\(server.address.baseURL)/healthz"))
        let (data, response) = try await URLSession.shared.data(from: url)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(http.value(forHTTPHeaderField: "X-Request-Id")?.isEmpty == false)
        #expect(String(decoding: data, as: UTF8.self) == #"{"status":"ok"}"#)
        await server.stop()
    }

    @Test("URLSession reuses one connection for sequential requests (keep-alive)")
    func urlSessionKeepAlive() async throws {
        let server = try TestServer.start()
        let session = URLSession(configuration: .ephemeral)
        let url = try #require(URL(string: "\(server.address.baseURL)/healthz"))
        for _ in 0..<5 {
            let (_, response) = try await session.data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
        }
        let opened = server.metrics.counter("widgethost_http_connections_total", help: "").value
        #expect(opened == 1)
        session.invalidateAndCancel()
        await server.stop()
    }

    @Test("several requests are served over one TCP connection", arguments: bridgings)
    func keepAliveOverOneSocket(bridging: HandlerBridging) async throws {
        var router = HTTPRouter()
        router.post("/echo") { request, _ in HTTPResponse(body: request.body) }
        let server = try TestServer.start(router, bridging: bridging)
        let client = try RawHTTPClient(server.address)
        for index in 0..<5 {
            let response = try await client.request("POST", "/echo", body: Data("body \(index)".utf8))
            #expect(response.status == 200)
            #expect(response.text == "body \(index)")
            #expect(response.header("Connection")?.lowercased() != "close")
        }
        let health = try await client.request("GET", "/healthz")
        #expect(health.status == 200)
        #expect(server.metrics.counter("widgethost_http_connections_total", help: "").value == 1)
        await server.stop()
    }

    @Test("the request model: decoded query items, case-insensitive headers, remote address, request id")
    func requestModel() async throws {
        let seen = LockedLines()
        var router = HTTPRouter()
        router.get("/inspect") { request, _ in
            seen.append(request.query("url") ?? "nil")
            seen.append(request.query("q") ?? "nil")
            seen.append(request.query("flag") ?? "valueless")
            seen.append(request.headers["x-custom-header"] ?? "nil")
            seen.append(request.remoteAddress ?? "nil")
            seen.append(request.id)
            return .text("ok")
        }
        let server = try TestServer.start(router)
        let client = try RawHTTPClient(server.address)
        let response = try await client.request(
            "GET", "/inspect?url=myapp%3A%2F%2Ftask%2F42%3Fsource%3Dhome&q=a+b%20c&flag",
            headers: [("X-Custom-Header", "Value")]
        )
        #expect(response.status == 200)
        let values = seen.get()
        #expect(values.count == 6)
        #expect(values.first == "myapp://task/42?source=home")
        #expect(values.dropFirst().first == "a b c")
        #expect(values.dropFirst(2).first == "valueless")
        #expect(values.dropFirst(3).first == "Value")
        #expect(values.dropFirst(4).first?.hasPrefix("127.0.0.1:") == true)
        #expect(values.last == response.header("X-Request-Id"))
        await server.stop()
    }

    @Test("serves over a Unix socket, created with mode 0600 and removed on stop")
    func unixSocket() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wh-\(UUID().uuidString.prefix(8)).sock").path
        let server = try TestServer.start(address: .unixSocket(path: path))
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        let client = try RawHTTPClient(.unixSocket(path: path))
        let response = try await client.request("GET", "/healthz")
        #expect(response.status == 200)
        #expect(response.text == #"{"status":"ok"}"#)
        #expect(try await client.request("GET", "/healthz").status == 200)
        await server.stop()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("serves on the IPv6 loopback")
    func ipv6Loopback() async throws {
        let server = try TestServer.start(address: .loopbackIPv6())
        #expect(server.address.description.hasPrefix("[::1]:"))
        let client = try RawHTTPClient(server.address)
        #expect(try await client.request("GET", "/healthz").status == 200)
        await server.stop()
    }

    @Test("port 0 binds an ephemeral port that is reported")
    func ephemeralPort() async throws {
        let server = try TestServer.start()
        let port = try #require(server.port)
        #expect(port > 0)
        #expect(server.address == .tcp(host: "127.0.0.1", port: port))
        await server.stop()
    }

    @Test("a handler throwing an unexpected error answers 500 internal with the error in detail")
    func unexpectedErrorIs500() async throws {
        struct Boom: Error, CustomStringConvertible {
            var description: String { "boom at the database" }
        }
        var router = HTTPRouter()
        router.get("/boom") { _, _ in throw Boom() }
        let log = TestServer.LogLines()
        let server = try TestServer.start(router, log: log)
        let client = try RawHTTPClient(server.address)
        let response = try await client.request("GET", "/boom")
        #expect(response.status == 500)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.json["code"] as? String == "internal")
        let detail = response.json["detail"] as? [String: Any]
        #expect(detail?["error"] as? String == "boom at the database")
        // The server survives and the connection stays usable.
        #expect(try await client.request("GET", "/healthz").status == 200)
        #expect(log.all.contains { $0.contains(#""level":"error""#) && $0.contains("boom at the database") })
        await server.stop()
    }

    @Test("an APIError thrown by a handler keeps its status, code, detail and headers")
    func apiErrorPassesThrough() async throws {
        var router = HTTPRouter()
        router.get("/v1/instances/{id}") { _, parameters in
            throw APIError(.notFound, status: .notFound, message: "no instance", detail: .object(["id": .string(try parameters.require("id"))]),
                           headers: ["Retry-After": "1"])
        }
        let server = try TestServer.start(router)
        let response = try await RawHTTPClient(server.address).request("GET", "/v1/instances/abc")
        #expect(response.status == 404)
        #expect(response.header("Retry-After") == "1")
        #expect(response.text == #"{"code":"not_found","detail":{"id":"abc"},"message":"no instance"}"#)
        await server.stop()
    }

    @Test("each request writes one JSON log line; the level filters")
    func requestLogLines() async throws {
        let log = TestServer.LogLines()
        let server = try TestServer.start(log: log)
        let client = try RawHTTPClient(server.address)
        let response = try await client.request("GET", "/healthz")
        _ = try await client.request("GET", "/nowhere")
        await server.stop()
        let requests = log.all.filter { $0.contains(#""msg":"request""#) }
        #expect(requests.count == 2)
        let first = try #require(requests.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(object["method"] as? String == "GET")
        #expect(object["path"] as? String == "/healthz")
        #expect(object["status"] as? Int == 200)
        #expect(object["duration_ms"] is Double)
        #expect(object["request_id"] as? String == response.header("X-Request-Id"))
        #expect(object["time"] is String)

        let quiet = TestServer.LogLines()
        let warningOnly = try TestServer.start(log: quiet, logLevel: .warning)
        _ = try await RawHTTPClient(warningOnly.address).request("GET", "/healthz")
        await warningOnly.stop()
        #expect(quiet.all.isEmpty)
    }

    @Test("inlineThenSuspend runs a handler that does not suspend on the MHD worker; the others hop to Swift's pool",
          arguments: bridgings)
    func whereHandlersRun(bridging: HandlerBridging) async throws {
        let threadNames = LockedLines()
        var router = HTTPRouter()
        router.get("/where") { _, _ in
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
            threadNames.append(name.trimmingCharacters(in: .whitespacesAndNewlines))
            return .text("ok")
        }
        let server = try TestServer.start(router, bridging: bridging)
        #expect(try await RawHTTPClient(server.address).request("GET", "/where").status == 200)
        await server.stop()
        let onWorker = threadNames.get() == ["MHD-worker"]
        #expect(onWorker == (bridging == .inlineThenSuspend), "\(threadNames.get())")
    }
}
