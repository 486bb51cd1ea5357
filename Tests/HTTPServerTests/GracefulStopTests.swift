import Foundation
import HTTPTestSupport
import ProcessTestSupport
import Testing
import HTTPServer

@Suite("Graceful stop")
struct GracefulStopTests {
    /// A handler that reports when it starts, then sleeps for `sleep` or, when `release` is given, until the
    /// test releases it (so "still in flight" does not depend on how busy the machine is).
    private func slowRouter(sleep: Duration, started: Tally, release: Tally? = nil) -> HTTPRouter {
        var router = HTTPRouter()
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
        await waitUntil { !server.isRunning && (try? RawHTTPClient(address)) == nil }
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
        // The handler sleeps far longer than the bound below, so that a stop that waited for it cannot pass
        // on a machine other processes slow down.
        let server = try TestServer.start(slowRouter(sleep: .seconds(20), started: started))
        let client = try RawHTTPClient(server.address)
        let inFlight = Task { try await client.request("GET", "/slow") }
        await waitUntil { started.value == 1 }
        let clock = ContinuousClock()
        let elapsed = await clock.measure { await server.stop(gracePeriod: .milliseconds(200)) }
        #expect(elapsed < .seconds(10))
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

    /// A client that connects, asks and hangs up as fast as it can, counting answers in `answered`,
    /// until `done` is counted or a connection is refused: the server no longer accepts, and trying
    /// again would only spin (three such loops held both cores of the build machine for the whole
    /// test, and other tests running beside it timed out).
    private func churn(_ address: ListenAddress, answered: Tally, until done: Tally) async throws {
        try await runOffPool {
            while done.value == 0 {
                guard let client = try? RawHTTPClient(address, timeoutSeconds: 2) else { return }
                if (try? client.requestBlocking("GET", "/healthz"))?.status == 200 { answered.increment() }
            }
        }
    }

    // libmicrohttpd 0.9.75's `MHD_quiesce_daemon`, with epoll and a thread pool, aborted the process
    // when a worker woken by a connection removed the listen socket from its epoll set first (seen
    // once in a clean-clone CI run); the server no longer calls it. Stops land while workers wake:
    // with the old stop, 4 of 11 runs of this test at 400 stops aborted; with this one, none of 12.
    @Test("stopping while clients connect and hang up never aborts, and leaves the port refusing")
    func stopDuringConnectionChurn() async throws {
        for _ in 0..<200 {
            let server = try TestServer.start()
            let address = server.address
            let (answered, done) = (Tally(), Tally())
            let clients = (0..<3).map { _ in Task { try await churn(address, answered: answered, until: done) } }
            // The stop lands once the clients are being answered, while they go on connecting.
            await waitUntil { answered.value > 0 }
            #expect(answered.value > 0)
            await server.stop(gracePeriod: .milliseconds(200))
            done.increment()
            for client in clients { try await client.value }
            #expect(throws: RawHTTPClient.Failure.self) { try RawHTTPClient(address) }
        }
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
