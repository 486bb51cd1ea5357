import Foundation
import HTTPTestSupport
import Testing
import HTTPServer

@Suite("Request bodies and the size cap")
struct RequestBodyTests {
    private func echoServer(cap: Int, received: Tally) throws -> HTTPServer {
        var router = HTTPRouter()
        router.post("/echo") { request, _ in
            received.increment()
            return HTTPResponse(body: request.body)
        }
        return try TestServer.start(router, maximumBodySize: cap)
    }

    @Test("a body at the cap is read whole across MHD's calls")
    func bodyAtCap() async throws {
        let received = Tally()
        let server = try echoServer(cap: 300_000, received: received)
        let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let client = try RawHTTPClient(server.address)
        let response = try await client.request("POST", "/echo", body: body)
        #expect(response.status == 200)
        #expect(response.body == body)
        #expect(received.value == 1)
        await server.stop()
    }

    @Test("a declared Content-Length over the cap gets 413 before the body is read")
    func declaredTooLarge() async throws {
        let received = Tally()
        let server = try echoServer(cap: 1024, received: received)
        let client = try RawHTTPClient(server.address)
        // Only the head is sent: the answer must not wait for the 10 MB body.
        let response = try await client.send(Data("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n".utf8))
        #expect(response.status == 413)
        #expect(response.json["code"] as? String == "payload_too_large")
        #expect((response.json["detail"] as? [String: Any])?["limit_bytes"] as? Int == 1024)
        #expect(received.value == 0)
        await server.stop()
    }

    @Test("a chunked body growing over the cap gets 413 and the handler never runs")
    func chunkedTooLarge() async throws {
        let received = Tally()
        let server = try echoServer(cap: 1024, received: received)
        let client = try RawHTTPClient(server.address)
        var request = Data("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        for _ in 0..<4 {
            request += Data("200\r\n".utf8) + Data(repeating: 0x61, count: 0x200) + Data("\r\n".utf8)
        }
        request += Data("0\r\n\r\n".utf8)
        let response = try await client.send(request)
        #expect(response.status == 413)
        #expect(response.json["code"] as? String == "payload_too_large")
        #expect(received.value == 0)
        // The body was consumed, so the connection still works.
        #expect(try await client.request("GET", "/healthz").status == 200)
        await server.stop()
    }

    @Test("the default cap is 1 MiB")
    func defaultCap() {
        #expect(HTTPServer.Configuration().maximumBodySize == 1_048_576)
    }
}
