import DeepLinks
import DemoWidgets
import Foundation
import HTTPServer
import HTTPTestSupport
import PostgresStore
import SharedState
import Testing
import WidgetHost
import WidgetHostServer

/// A daemon running inside the test process, on an ephemeral loopback port, over a fresh data directory with the
/// fixtures loaded, the source tree's `Routes/`, the demo catalog, its interactive intents and controls, and a virtual
/// clock.
final class InProcessDaemon: Sendable {
    /// The virtual clock's start: 2026-03-01 09:00 UTC (10:00 in Paris).
    static let start = Date(timeIntervalSince1970: 1_772_355_600)
    static let timeZone = TimeZone(identifier: "Europe/Paris")!

    let daemon: WidgetHostDaemon
    let engine: WidgetEngine
    /// The demo App Group container the intents change.
    let container: AppGroupContainer
    let directory: URL
    let logLines = LogLines()

    var address: ListenAddress { daemon.server.address }

    /// Starts a daemon.
    /// - Parameters:
    ///   - systemClock: Run on the wall clock (with the reload scheduler) instead of a virtual one.
    ///   - token: A bearer token every request must carry.
    ///   - routesDirectory: Where the route tables are (and `POST /v1/routes/reload` reads them); the source tree's
    ///     `Routes/` by default.
    ///   - reloadableRoutes: False to hand the daemon a table without its directory, which it then cannot reload.
    ///   - catalog: The catalog served; the demo catalog by default (a test adds an activity attributes type to it).
    ///   - analytics: A PostgreSQL database to keep taps in (`--analytics`) instead of the engine store.
    ///   - directory: The data directory, for a test that made an engine store there beforehand; a fresh one by
    ///     default.
    init(systemClock: Bool = false, token: String? = nil, routesDirectory: URL = InProcessDaemon.routesDirectory,
         reloadableRoutes: Bool = true, catalog: WidgetCatalog = DemoCatalog.make(),
         analytics: PostgresPool? = nil, directory: URL? = nil) throws {
        self.directory = directory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("widgethost-daemon-\(UUID().uuidString)", isDirectory: true)
        // Commits skip fsync here: these tests are about the API, many daemons run at once on two cores, and
        // durability is what the child-process tests (the real binary, default settings) exercise.
        container = try AppGroupContainer(identifier: DemoSchema.appGroup, dataDirectory: self.directory,
                                          synchronous: .off)
        try FixtureLoader.load(Fixtures(directory: Fixtures.bundledDirectory), into: container)
        let store = try EngineStore(database: DatabaseStore(
            path: self.directory.appendingPathComponent("widgethost.sqlite").path,
            configuration: .init(synchronous: .off)))
        let clock: any HostClock = systemClock ? SystemClock() : VirtualClock(start: Self.start)
        engine = WidgetEngine(catalog: catalog, store: store, clock: clock, timeZone: Self.timeZone,
                              containers: [container], controls: DemoCatalog.makeControls())
        let routes = reloadableRoutes ? try RouteTableHolder(loading: routesDirectory.path)
            : RouteTableHolder(try RouteTable.load(directory: routesDirectory.path))
        let intents = try IntentRunner(engine: engine, intents: DemoCatalog.makeIntents(), container: container)
        daemon = try WidgetHostDaemon(
            engine: engine, routes: routes, intents: intents, checkpointing: [store.database, container.store],
            configuration: HTTPServer.Configuration(
                address: .loopback(), bearerToken: token, threadPoolSize: 2,
                log: ServerLog(level: .info, sink: logLines.sink)),
            taps: try analytics.map { try PostgresTapLog(pool: $0, engineStore: store, routes: routes) })
    }

    /// The source tree's `Routes/`.
    static var routesDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Routes")
    }

    /// Sends one request on a new connection. `json` is the body, sent with `Content-Type: application/json`.
    func request(_ method: String, _ target: String, json: String? = nil,
                 headers: [(String, String)] = []) async throws -> RawHTTPClient.Response {
        let client = try RawHTTPClient(address)
        var headers = headers
        if json != nil { headers.append(("Content-Type", "application/json")) }
        return try await client.request(method, target, headers: headers, body: json.map { Data($0.utf8) })
    }

    /// Stops the daemon and removes its data directory.
    func stop() async {
        await daemon.stop(gracePeriod: .seconds(5))
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Log lines a daemon wrote.
final class LogLines: @unchecked Sendable {
    // @unchecked Sendable: `lines` is only touched under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    var sink: @Sendable (String) -> Void {
        { [self] line in lock.withLock { lines.append(line) } }
    }

    var all: [String] { lock.withLock { lines } }
}

extension RawHTTPClient.Response {
    /// The body as any JSON value.
    var jsonValue: Any? { try? JSONSerialization.jsonObject(with: body) }

    /// The array member `key` of a JSON object body, as objects.
    func objects(_ key: String) -> [[String: Any]] {
        json[key] as? [[String: Any]] ?? []
    }

    /// The error code of a `{code, message, detail}` body.
    var errorCode: String? { json["code"] as? String }

    /// Whether the body is an error object with exactly `code`, `message` and `detail`.
    var isErrorBody: Bool {
        Set(json.keys) == ["code", "message", "detail"] && json["code"] is String && json["message"] is String
    }
}

/// Expects a refusal: `status`, the error `code`, and a `{code, message, detail}` JSON body.
func expectRefusal(_ response: RawHTTPClient.Response, status: Int, code: String,
                   sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    #expect(response.status == status, sourceLocation: sourceLocation)
    #expect(response.errorCode == code, sourceLocation: sourceLocation)
    #expect(response.isErrorBody, sourceLocation: sourceLocation)
}
