import Foundation
import HTTPTestSupport
import ProcessTestSupport
import Testing

extension DaemonTests {
    /// `widgethost serve` as a process: SIGTERM with a request in flight, and the command line.
    @Suite("widgethost serve", .serialized)
    struct ServeCommandTests {
        @Test("SIGTERM with a request in flight: the request is answered, the WAL is checkpointed, exit 0")
        func sigtermWithRequestInFlight() async throws {
            let directory = try DaemonProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let data = directory.appendingPathComponent("data")
            let daemon = try await DaemonProcess(["--data-dir", data.path, "--clock", "virtual",
                                                  "--clock-start", "2026-03-01T09:00:00Z"], logs: directory)
            // Sixteen configurations that reload every 30 minutes make a two-day advance run 1,536 reloads: a request
            // that takes a while (well over a second in a debug build; two configurations were once enough, until
            // reloads got faster and the request finished before the signal).
            for (index, project) in ["proj-thesis", "proj-launch", "proj-garden", "proj-move"].enumerated() {
                for family in ["systemSmall", "systemMedium", "accessoryCircular", "accessoryRectangular"] {
                    let placed = try await daemon.request("POST", "/v1/instances", json: """
                        {"kind":"ProjectProgress","family":"\(family)","parameters":{"project":"\(project)"},"id":"p\(index)\(family)"}
                        """)
                    #expect(placed.status == 201)
                }
            }
            let inFlight = Task { try await daemon.request("POST", "/v1/clock/advance", json: #"{"seconds":172800}"#) }
            // The advance moves the clock reload by reload: once it has left the start, the request is running.
            let deadline = ContinuousClock.now.advanced(by: .seconds(20))
            while try await daemon.request("GET", "/v1/clock").json["now"] as? String == "2026-03-01T09:00:00Z",
                  ContinuousClock.now < deadline {
                await Task.yield()
            }
            kill(daemon.process.processIdentifier, SIGTERM)

            let response = try await inFlight.value
            #expect(response.status == 200)
            #expect(response.json["now"] as? String == "2026-03-03T09:00:00Z")
            // Answered after the stop began: the server marks such responses `Connection: close`.
            #expect(response.header("Connection")?.lowercased() == "close")
            #expect(try await daemon.waitForExit() == 0)
            let log = daemon.errorOutput
            #expect(log.contains(#""msg":"stopped""#))
            #expect(log.contains(#""msg":"checkpointed""#))
            #expect(!log.contains(#""level":"error""#))
            // The checkpoint left the write-ahead log empty.
            let wal = data.appendingPathComponent("widgethost.sqlite-wal")
            let size = (try? FileManager.default.attributesOfItem(atPath: wal.path)[.size] as? Int) ?? 0
            #expect(size == 0)
        }

        @Test("SIGHUP reloads the route tables; a bad table is refused and logged, and the daemon goes on with the old one")
        func sighupReloadsRoutes() async throws {
            let directory = try DaemonProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let routes = directory.appendingPathComponent("routes")
            try FileManager.default.copyItem(at: InProcessDaemon.routesDirectory, to: routes)
            let daemon = try await DaemonProcess(["--data-dir", directory.appendingPathComponent("data").path,
                                                  "--routes", routes.path], logs: directory)
            let match = #"{"url":"myapp://settings"}"#
            #expect(try await daemon.request("POST", "/v1/routes/match", json: match).json["matched"] as? Bool == false)

            try "route settings.open\n    pattern myapp://settings\n    target Settings\n    example myapp://settings\n"
                .write(to: routes.appendingPathComponent("settings.routes"), atomically: true, encoding: .utf8)
            kill(daemon.process.processIdentifier, SIGHUP)
            try await Self.waitFor(daemon, logLine: #""msg":"routes reloaded""#)
            #expect(try await daemon.request("POST", "/v1/routes/match", json: match).json["route"] as? String == "settings.open")

            try "route broken\n    pattern myapp://broken/(\n    target X\n    example myapp://broken/1\n"
                .write(to: routes.appendingPathComponent("broken.routes"), atomically: true, encoding: .utf8)
            kill(daemon.process.processIdentifier, SIGHUP)
            try await Self.waitFor(daemon, logLine: #""msg":"route reload refused""#)
            #expect(daemon.errorOutput.contains("broken.routes:2:"))
            #expect(daemon.process.isRunning)
            #expect(try await daemon.request("POST", "/v1/routes/match", json: match).json["route"] as? String == "settings.open")
            #expect(try await daemon.stop() == 0)
        }

        @Test("serve does not start on route files that fail their own lint: exit 3, the finding where it is")
        func refusesUnlintedRoutes() async throws {
            let directory = try DaemonProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let routes = directory.appendingPathComponent("routes")
            try FileManager.default.createDirectory(at: routes, withIntermediateDirectories: true)
            try "route task\n    pattern myapp://task/(?<id>[0-9]+)\n    target Task\n    example myapp://task/a\n"
                .write(to: routes.appendingPathComponent("tasks.routes"), atomically: true, encoding: .utf8)
            let refused = try await run(["serve", "--port", "0", "--data-dir", directory.appendingPathComponent("data").path,
                                         "--routes", routes.path])
            #expect(refused.status == 3)
            #expect(refused.error.contains("tasks.routes:4:13: error: example myapp://task/a does not match route `task`"))
            #expect(refused.error.contains("[example-mismatch]"))
        }

        /// Polls the daemon's log until a line contains `logLine` (at most ten seconds).
        private static func waitFor(_ daemon: DaemonProcess, logLine: String) async throws {
            let deadline = ContinuousClock.now + .seconds(10)
            while !daemon.errorOutput.contains(logLine) {
                guard ContinuousClock.now < deadline else {
                    throw DaemonProcess.Failure(description: "no log line with \(logLine): \(daemon.errorOutput)")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }

        @Test("--help, bad usage and a non-loopback address without a token")
        func commandLine() async throws {
            let help = try await run(["serve", "--help"])
            #expect(help.status == 0)
            #expect(help.output.contains("usage: widgethost serve"))
            #expect(try await run(["serve", "--bogus"]).status == 2)
            #expect(try await run(["serve", "--clock", "sundial"]).status == 2)
            #expect(try await run(["serve", "--port", "70000"]).status == 2)
            let open = try await run(["serve", "--host", "0.0.0.0", "--port", "0", "--data-dir",
                                try DaemonProcess.temporaryDirectory().path])
            #expect(open.status == 2)
            #expect(open.error.contains("without a bearer token"))
        }

        @Test("--analytics: a string libpq cannot parse is bad usage (without its password); an unreachable server exit 3")
        func analyticsOption() async throws {
            let directory = try DaemonProcess.temporaryDirectory().path
            let bad = try await run(["serve", "--port", "0", "--data-dir", directory,
                                     "--analytics", "postgres://u:s3cret@h/db?no_such_option=1"])
            #expect(bad.status == 2)
            #expect(bad.error.contains("--analytics") && !bad.error.contains("s3cret"))
            let both = try await run(["serve", "--port", "0", "--data-dir", directory, "--analytics", "dbname=a",
                                      "--shared-store", "dbname=a"])
            #expect(both.status == 2)
            // A socket directory with no server in it: refused at once, before the daemon listens.
            let unreachable = try await run(["serve", "--port", "0", "--data-dir", directory, "--analytics",
                                             "postgresql:///db?host=\(directory)&connect_timeout=2"])
            #expect(unreachable.status == 3)
            #expect(unreachable.error.contains("--analytics"))
        }

        @Test("--push-store: bad usage for a bad string or beside --shared-store; an unreachable server exit 3")
        func pushStoreOption() async throws {
            let directory = try DaemonProcess.temporaryDirectory().path
            let bad = try await run(["serve", "--port", "0", "--data-dir", directory,
                                     "--push-store", "postgres://u:s3cret@h/db?no_such_option=1"])
            #expect(bad.status == 2)
            #expect(bad.error.contains("--push-store") && !bad.error.contains("s3cret"))
            let both = try await run(["serve", "--port", "0", "--data-dir", directory, "--push-store", "dbname=a",
                                      "--shared-store", "dbname=a"])
            #expect(both.status == 2)
            #expect(both.error.contains("--push-store and --shared-store"))
            let unreachable = try await run(["serve", "--port", "0", "--data-dir", directory, "--push-store",
                                             "postgresql:///db?host=\(directory)&connect_timeout=2"])
            #expect(unreachable.status == 3)
            #expect(unreachable.error.contains("--push-store"), "\(unreachable.error)")
        }

        @Test("--token enforced by the real binary; the plain listening line has a curl to try")
        func tokenAndBanner() async throws {
            let directory = try DaemonProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let daemon = try await DaemonProcess(["--data-dir", directory.appendingPathComponent("data").path,
                                                  "--token", "t0ken"], logs: directory)
            let refused = try await daemon.request("GET", "/v1/kinds")
            #expect(refused.status == 401)
            let client = try RawHTTPClient(daemon.address)
            let allowed = try await client.request("GET", "/v1/kinds", headers: [("Authorization", "Bearer t0ken")])
            #expect(allowed.status == 200)
            #expect(try await daemon.stop() == 0)

            let plain = try await DaemonProcess(["--data-dir", directory.appendingPathComponent("data2").path],
                                                logs: directory, expectJSON: false)
            let banner = (try? String(contentsOf: plain.standardOutput, encoding: .utf8)) ?? ""
            #expect(banner.contains("widgethost listening on http://127.0.0.1:\(plain.address.port ?? 0)"))
            #expect(banner.contains("try: curl http://127.0.0.1:\(plain.address.port ?? 0)/v1/kinds"))
            #expect(banner.contains("dashboard: http://127.0.0.1:\(plain.address.port ?? 0)/ui/"))
            #expect(try await plain.stop() == 0)
        }

        /// Runs `widgethost ARGUMENTS` to its end, off the cooperative pool (it blocks on pipes).
        private func run(_ arguments: [String]) async throws -> (status: Int32, output: String, error: String) {
            let finished = try await FinishedChild.run(try DaemonProcess.binary(), arguments)
            return (finished.status, finished.standardOutput, finished.standardError)
        }
    }
}
