import DeepLinks
import Foundation
import HTTPServer
import PostgresStore
import Push
import SharedState
import Synchronization
import WidgetHost
import WidgetHostServer

/// `widgethost serve`: the daemon. Opens the data directory (the app prepares its container: the demo loads its fixtures),
/// loads the route table, starts the HTTP/JSON API and the reload scheduler, and runs until SIGTERM or SIGINT.
package enum ServeCommand {
    static let defaultPort: UInt16 = 8787

    static func usage(_ app: HostedApp) -> String {
        """
        usage: \(app.commandName) serve [--data-dir DIR] [--port N | --unix PATH] [--host ADDR] [--token T]
                                [--clock system|virtual] [--clock-start ISO8601] [--time-zone TZ]
                                [--routes DIR] [--log-level debug|info|warning|error] [--threads N] [--json]
                                [--apns-endpoint URL --apns-key-file P8 --apns-key-id KID --apns-team-id TEAM
                                 --apns-topic BUNDLE [--apns-ca-file PEM] [--apns-connections N]]
                                [--analytics postgres://…] [--push-store postgres://…] [--shared-store postgres://…]

        Runs the WidgetHost daemon: the HTTP/JSON API under /v1 (OpenAPI at /v1/openapi.json), /healthz and
        /metrics. Prints where it listens and a curl line on stdout, then one JSON line per request on stderr.
        SIGTERM or SIGINT: stops accepting, finishes requests in flight, checkpoints the databases, exits 0.
        SIGHUP (or POST /v1/routes/reload): reads the --routes files again and swaps the new table in whole; a table
        with errors, or that `widgethost routes lint` rejects, is refused (logged with file:line:column) and the one
        in use stays. The daemon does not start on such a table either (exit 3).

          --data-dir DIR     engine state and App Group containers (default ./data, or $WIDGETHOST_DATA); the
                             app's container is prepared on open (the demo's gets Fixtures/ loaded when fresh)
          --port N           TCP port on --host (default 8787; 0 picks a free port)
          --host ADDR        IPv4/IPv6 literal to bind (default 127.0.0.1); other than loopback needs a token
          --unix PATH        listen on a Unix socket (mode 0600) instead of TCP
          --token T          require `Authorization: Bearer T` on every request (default $WIDGETHOST_TOKEN)
          --clock MODE       system (default): reloads run when due on the wall clock;
                             virtual: time moves only through PUT /v1/clock and POST /v1/clock/advance
          --clock-start T    a fresh virtual clock's start (default now); a restarted daemon resumes its saved time
          --time-zone TZ     the device's time zone, e.g. Europe/Paris (default: the machine's)
          --routes DIR       deep-link route tables (default ./Routes, else the source tree's Routes/)
          --log-level L      lowest log level written (default info)
          --threads N        HTTP worker threads (default: the core count, at least 2)
          --json             print the listening line as one JSON object instead
          --analytics URL    keep taps in this PostgreSQL database (a libpq URL or key=value string), shared by
                             every daemon given it (Docs/postgres.md); default: the engine store (SQLite)
          --push-store URL   keep the push store (token registry, planner, outbox) in this PostgreSQL database,
                             shared by every daemon given it: each daemon's --apns-* sender drains the one outbox
                             under leases (Docs/postgres.md); default: the engine store (SQLite)
          --shared-store URL one PostgreSQL database for both taps and the push store (instead of the two above)
        \(APNsOptions.usage)

        exit codes: 0 stopped by a signal; 1 the server could not start (e.g. the port is in use);
                    2 bad usage (unknown option, bad value, non-loopback address without a token);
                    3 the data directory or the route table could not be opened
        """
    }

    package static func run(_ arguments: [String], app: HostedApp) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage(app))
            return ExitCode.success
        }
        let settings: ServeSettings
        do {
            let options = try Options(arguments, valued: ServeSettings.valuedOptions, flags: ["json"])
            guard options.positional.isEmpty else {
                throw OptionError(message: "unexpected argument '\(options.positional[0])'")
            }
            settings = try ServeSettings(options, app: app)
        } catch let error as OptionError {
            printError("\(app.commandName) serve: \(error.message)\n\n\(usage(app))")
            return ExitCode.usage
        } catch {
            printError("\(app.commandName) serve: \(error)")
            return ExitCode.usage
        }
        let finished = DispatchSemaphore(value: 0)
        Task {
            let code = await serve(settings)
            exitStatus.withLock { $0 = code }
            finished.signal()
        }
        finished.wait()
        return exitStatus.withLock { $0 }
    }

    /// Runs the daemon until a signal stops it.
    static func serve(_ settings: ServeSettings) async -> Int32 {
        let opened: ServeSettings.Opened
        do {
            opened = try await settings.open()
        } catch {
            printError("\(settings.app.commandName) serve: \(error)")
            return ExitCode.dataError
        }
        let routes = RouteTableHolder(opened.routes, directory: settings.routesDirectory)
        var taps: (any TapLog)?
        if let pool = settings.analytics {
            do {
                taps = try PostgresTapLog(pool: pool, engineStore: opened.engine.store, routes: routes)
            } catch {
                printError("\(settings.app.commandName) serve: --analytics: \(error)")
                return ExitCode.dataError
            }
        }
        let daemon: WidgetHostDaemon
        do {
            daemon = try WidgetHostDaemon(
                engine: opened.engine, routes: routes, intents: opened.intents,
                checkpointing: [opened.engine.store.database, opened.container.store],
                configuration: settings.serverConfiguration(), apns: settings.apns, taps: taps,
                pushStorage: settings.pushStore.map(PushDatabase.postgres))
        } catch let error as PostgresError {
            // Taps were opened above: this is the push store, which could not be reached or migrated.
            printError("\(settings.app.commandName) serve: --push-store: \(error)")
            return ExitCode.dataError
        } catch let error as ServerError {
            printError("\(settings.app.commandName) serve: \(error)")
            switch error {
            case .nonLoopbackWithoutToken, .invalidAddress, .invalidConfiguration: return ExitCode.usage
            case .socket, .daemonStartFailed: return ExitCode.problemFound
            }
        } catch {
            printError("\(settings.app.commandName) serve: \(error)")
            return ExitCode.problemFound
        }
        announce(daemon.server.address, settings: settings)
        reloadRoutesOnHangUp(daemon)
        await waitForStopSignal()
        await daemon.stop()
        return ExitCode.success
    }

    /// Prints where the daemon listens, a request to try and (over TCP) the dashboard's address, unbuffered (a
    /// parent process may be reading).
    static func announce(_ address: ListenAddress, settings: ServeSettings) {
        let curl: String
        var dashboard: String?
        switch address {
        case .unixSocket(let path): curl = "curl --unix-socket \(path) http://localhost/v1/kinds"
        case .tcp:
            curl = "curl \(address.baseURL)/v1/kinds"
            dashboard = address.baseURL + "/ui/"
        }
        let auth = settings.token == nil ? "" : " -H 'Authorization: Bearer $WIDGETHOST_TOKEN'"
        let text: String
        if settings.json {
            var object: [String: Any] = ["listening": address.description, "url": address.baseURL, "curl": curl + auth]
            if let port = address.port { object["port"] = Int(port) }
            if let dashboard { object["dashboard"] = dashboard }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys,
                                                                                         .withoutEscapingSlashes]))
            text = String(decoding: data ?? Data(), as: UTF8.self) + "\n"
        } else {
            let location = address.port == nil ? address.description : address.baseURL
            text = "widgethost listening on \(location)\ntry: \(curl)\(auth)\n"
                + (dashboard.map { "dashboard: \($0)\n" } ?? "")
        }
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Reloads the route tables from `--routes` whenever the process receives SIGHUP (its default action, to exit, is
    /// disabled first). The outcome is logged; a table with errors is refused and the one in use stays.
    static func reloadRoutesOnHangUp(_ daemon: WidgetHostDaemon) {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "widgethost.sighup"))
        // The outcome is in the log; a refusal changes nothing else.
        source.setEventHandler { _ = try? daemon.reloadRoutes(trigger: "SIGHUP") }
        source.resume()
        SignalSources.keep([source])
    }

    /// The daemon's exit status, handed from its task to the thread that waits for it (once per process).
    private static let exitStatus = Mutex<Int32>(ExitCode.success)
    /// Whether SIGTERM or SIGINT has already ended ``waitForStopSignal()`` (it resumes once per process).
    private static let stopSignalled = Mutex(false)

    /// Returns when the process receives SIGTERM or SIGINT (their default actions are disabled first).
    static func waitForStopSignal() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            var sources: [any DispatchSourceSignal] = []
            for number in [SIGTERM, SIGINT] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    let wasResumed = stopSignalled.withLock { signalled -> Bool in
                        defer { signalled = true }
                        return signalled
                    }
                    if !wasResumed { continuation.resume() }
                }
                source.resume()
                sources.append(source)
            }
            // The sources must outlive this closure: keep them for the process's lifetime.
            SignalSources.keep(sources)
        }
    }
}

/// Keeps signal sources alive; they stop delivering when released.
enum SignalSources {
    /// A source held only to keep it alive.
    private struct Kept: @unchecked Sendable {
        // @unchecked Sendable: the source is stored and never touched again; its handler runs on its own queue.
        let source: any DispatchSourceSignal
    }

    private static let kept = Mutex<[Kept]>([])

    static func keep(_ sources: [any DispatchSourceSignal]) {
        let sources = sources.map(Kept.init)
        kept.withLock { $0 += sources }
    }
}
