import Foundation
import HTTPTestSupport
import Testing
import HTTPServer

@Suite("Request heads with bytes HTTP does not allow never reach a handler")
struct RequestHeadTests {
    @Test("each is 400 malformed_request, the handlers run only for the well-formed ones", arguments: [
        ("POST /v1/things\0/x HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}", false),
        ("POST /v1/things HTTP/1.1\r\nHost: x\r\nX-Key: a\0b\r\nContent-Length: 2\r\n\r\n{}", false),
        ("POST /v1/things HTTP/1.1\r\nHost: x\r\nX-Key: a\u{1B}b\r\nContent-Length: 2\r\n\r\n{}", false),
        ("POST /v1/th\u{8}ings HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}", false),
        ("POST /v1/things HTTP/1.1\r\nHost: x\r\nX-Key: ab\r\nContent-Length: 2\r\n\r\n{}", true),
        ("POST /v1/things HTTP/1.1\nHost: x\nX-Key: ab\nContent-Length: 2\n\n{}", true),
    ])
    func refusedBeforeHandlers(request: String, served: Bool) async throws {
        let handled = Tally()
        var router = HTTPRouter()
        router.post("/v1/things") { _, _ in
            handled.increment()
            return .json(["ok": true])
        }
        let server = try TestServer.start(router)
        let response = try await RawHTTPClient(server.address).send(Data(request.utf8))
        #expect(response.status == (served ? 200 : 400))
        #expect(handled.value == (served ? 1 : 0))
        if !served {
            #expect(response.json["code"] as? String == "malformed_request")
        }
        await server.stop()
    }
}
