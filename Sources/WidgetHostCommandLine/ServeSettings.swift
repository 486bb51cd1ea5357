import DeepLinks
import Foundation
import HTTPServer
import PostgresStore
import SharedState
import WidgetHost
import WidgetHostServer

/// `widgethost serve`'s options, checked, and what they open.
struct ServeSettings {
    /// What the daemon serves.
    var app: HostedApp
    static let valuedOptions: Set<String> = Set([
        "data-dir", "port", "unix", "host", "token", "clock", "clock-start", "time-zone", "routes", "log-level",
        "threads", "analytics", "shared-store", "push-store",
    ]).union(APNsOptions.valuedOptions)

    var dataDirectory: URL
    var address: ListenAddress
    var token: String?
    var virtualClock: Bool
    var clockStart: Date?
    /// The `--time-zone` given, or nil for the system's (looked up by the engine when first needed).
    var timeZone: TimeZone?
    var routesDirectory: String
    var logLevel: LogLevel
    var threads: Int
    var json: Bool
    /// Where the outbox's pushes go, when `--apns-*` were given.
    var apns: WidgetHostDaemon.APNsSettings?
    /// The PostgreSQL database taps are kept in (`--analytics`, or `--shared-store`), shared by every daemon given
    /// it; nil: the engine store (SQLite).
    var analytics: PostgresPool?
    /// The PostgreSQL database the push store (token registry, planner, outbox) is kept in (`--push-store`, or
    /// `--shared-store`), shared by every daemon given it; nil: the engine store (SQLite).
    var pushStore: PostgresPool?

    /// Checks the options.
    /// - Throws: ``OptionError`` naming the bad option.
    init(_ options: Options, app: HostedApp) throws(OptionError) {
        self.app = app
        dataDirectory = options.dataDirectory
        if let path = options["unix"] {
            guard options["port"] == nil, options["host"] == nil else {
                throw OptionError(message: "--unix cannot be combined with --port or --host")
            }
            address = .unixSocket(path: path)
        } else {
            let port: UInt16
            if let text = options["port"] {
                guard let parsed = UInt16(text) else { throw OptionError(message: "--port needs a number 0-65535") }
                port = parsed
            } else {
                port = ServeCommand.defaultPort
            }
            address = .tcp(host: options["host"] ?? "127.0.0.1", port: port)
        }
        token = options["token"] ?? ProcessInfo.processInfo.environment["WIDGETHOST_TOKEN"].flatMap {
            $0.isEmpty ? nil : $0
        }
        switch options["clock"] ?? "system" {
        case "system": virtualClock = false
        case "virtual": virtualClock = true
        default: throw OptionError(message: "--clock is system or virtual")
        }
        if let text = options["clock-start"] {
            guard virtualClock else { throw OptionError(message: "--clock-start needs --clock virtual") }
            clockStart = try Options.date(text, option: "clock-start")
        }
        if let identifier = options["time-zone"] {
            guard let zone = TimeZone(identifier: identifier) else {
                throw OptionError(message: "--time-zone: unknown time zone '\(identifier)'")
            }
            timeZone = zone
        } else {
            timeZone = nil
        }
        routesDirectory = options["routes"] ?? app.routesDirectory ?? RoutesDirectory.defaultPath()
        guard let level = LogLevel(rawValue: options["log-level"] ?? "info") else {
            throw OptionError(message: "--log-level is one of debug, info, warning, error")
        }
        logLevel = level
        if let text = options["threads"] {
            guard let count = Int(text), (1...64).contains(count) else {
                throw OptionError(message: "--threads needs a number 1-64")
            }
            threads = count
        } else {
            threads = max(2, ProcessInfo.processInfo.activeProcessorCount)
        }
        json = options.has("json")
        apns = try APNsOptions.parse(options)?.settings()
        for option in ["analytics", "push-store"] where options[option] != nil && options["shared-store"] != nil {
            throw OptionError(message: "--\(option) and --shared-store name the same store: give one")
        }
        analytics = try Self.pool(options, "analytics", threads: threads)
        pushStore = try Self.pool(options, "push-store", threads: threads)
    }

    /// The pool of the PostgreSQL database `--option` (or `--shared-store`) names, nil when neither was given.
    private static func pool(_ options: Options, _ option: String, threads: Int) throws(OptionError) -> PostgresPool? {
        let given = options[option] != nil ? option : "shared-store"
        guard let url = options[given] else { return nil }
        do {
            return try PostgresPool(connectionString: url, maximumConnections: max(2, threads))
        } catch {
            throw OptionError(message: "--\(given): \((error as? PostgresError)?.message ?? String(describing: error))")
        }
    }

    /// What ``open()`` opened.
    struct Opened {
        var container: AppGroupContainer
        var engine: WidgetEngine
        var intents: IntentRunner
        var routes: DeepLinks.RouteTable
    }

    /// Opens the app's container (prepared by the app: the demo loads its fixtures when it is fresh), the engine
    /// store and the route table, and creates the engine and the runner of the app's interactive intents. A virtual clock resumes the time saved in the store, else starts at
    /// `--clock-start` or now, and saves it at once so a restart resumes it. Returns once the reloads owed by
    /// performs of the previous run have run.
    func open() async throws -> Opened {
        let container = try app.openContainer(dataDirectory: dataDirectory)
        let store = try EngineStore(directory: dataDirectory)
        let routes = try DeepLinks.RouteTable.loadLinted(directory: routesDirectory)
        let clock: any HostClock
        if virtualClock {
            clock = VirtualClock(start: try WidgetEngine.savedVirtualTime(in: store) ?? clockStart ?? Date())
        } else {
            clock = SystemClock()
        }
        let engine = WidgetEngine(catalog: app.catalog(), store: store, clock: clock, timeZone: timeZone,
                                  containers: [container], controls: app.controls())
        if let virtual = clock as? VirtualClock {
            try await engine.setClock(to: virtual.now)
        }
        let intents = try IntentRunner(engine: engine, intents: app.intents(), container: container)
        // Reloads owed by performs of the previous run run before the API answers, so no tapped widget is served on
        // its old state; the daemon logs their outcome (a failure leaves them owed, it does not stop the daemon).
        _ = try? await intents.startUpReloads()
        return Opened(container: container, engine: engine, intents: intents, routes: routes)
    }

    /// The HTTP server's configuration.
    func serverConfiguration() -> HTTPServer.Configuration {
        HTTPServer.Configuration(address: address, bearerToken: token, threadPoolSize: threads,
                                 maximumBodySize: WidgetHostAPI.maximumBodySize, log: ServerLog(level: logLevel))
    }
}
