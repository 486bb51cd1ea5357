import Foundation
import HTTPTestSupport
import Testing
import WidgetHostServer

@Suite("Graceful stop")
struct GracefulStopTests {
    /// A handler that reports when it starts, then sleeps for `sleep` or, when `release` is given, until the
    /// test releases it (so "still in flight" does not depend on how busy the machine is).
    private func slowRouter(sleep: Duration, started: Tally, release: Tally? = nil) -> Router {
        var router = Router()
        router.get("/slow") { _, _ in
            started.increment()
            if let release {
                let clock = ContinuousClock()
                let deadline = clock.now + .seconds(30)
                while release.value == 0, clock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
            } else {
                try? await Task.sleep(for: sleep)
            }
            return .json(["slept": true])
        }
        return router
    }

    private func waitUntil(_ condition: () -> Bool) async {
        for _ in 0..<400 where !condition() {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test("a request in flight finishes with 200; new connections are refused; the hook runs after", arguments: [
        HandlerBridging.inlineThenSuspend, .suspendResume, .blockWorker,
    ])
    func inFlightCompletes(bridging: HandlerBridging) async throws {
        let started = Tally()
        let hookRuns = Tally()
        let release = Tally()
        let server = try TestServer.start(
            slowRouter(sleep: .zero, started: started, release: release), bridging: bridging,
            onStop: { hookRuns.increment() }
        )
        let address = server.address
        let client = try RawHTTPClient(address)
        let inFlight = Task { try await client.request("GET", "/slow") }
        await waitUntil { started.value == 1 }
        #expect(started.value == 1)

        let stopping = Task { await server.stop(gracePeriod: .seconds(5)) }
        await waitUntil { !server.isRunning }
        try await Task.sleep(for: .milliseconds(100))
        #expect(throws: RawHTTPClient.Failure.self) { try RawHTTPClient(address) }
        #expect(hookRuns.value == 0)

        release.increment()
        let response = try await inFlight.value
        #expect(response.status == 200)
        #expect(response.text == #"{"slept":true}"#)
        #expect(response.header("Connection")?.lowercased() == "close")
        await stopping.value
        #expect(hookRuns.value == 1)
        #expect(throws: RawHTTPClient.Failure.self) { try RawHTTPClient(address) }

        await server.stop()
        #expect(hookRuns.value == 1)
    }

    @Test("a handler still running after the grace period gets 503 unavailable and stop returns")
    func gracePeriodExpires() async throws {
        let started = Tally()
        let server = try TestServer.start(slowRouter(sleep: .seconds(3), started: started))
        let client = try RawHTTPClient(server.address)
        let inFlight = Task { try await client.request("GET", "/slow") }
        await waitUntil { started.value == 1 }
        let clock = ContinuousClock()
        let elapsed = await clock.measure { await server.stop(gracePeriod: .milliseconds(200)) }
        #expect(elapsed < .seconds(2))
        let response = try await inFlight.value
        #expect(response.status == 503)
        #expect(response.json["code"] as? String == "unavailable")
    }

    @Test("idle keep-alive connections are closed by the stop")
    func idleConnectionsClosed() async throws {
        let server = try TestServer.start()
        let client = try RawHTTPClient(server.address)
        #expect(try await client.request("GET", "/healthz").status == 200)
        await server.stop(gracePeriod: .seconds(1))
        #expect(await client.isClosedByServer())
    }

    @Test("a server released without stop() shuts down cleanly")
    func releasedWithoutStop() async throws {
        var server: HTTPServer? = try TestServer.start()
        let address = try #require(server?.address)
        #expect(try await RawHTTPClient(address).request("GET", "/healthz").status == 200)
        server = nil
        #expect(throws: RawHTTPClient.Failure.self) { try RawHTTPClient(address) }
    }
}
