// swift-tools-version: 6.0
import PackageDescription

/// Compiler settings every Swift target shares: Swift 6 language mode (set package-wide below),
/// strict concurrency, and `any` spelled out on existentials.
let sharedSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

/// iOS-style widget code must also compile in Swift 5 language mode, as users' extensions often are.
let swift5Settings: [SwiftSetting] = [.swiftLanguageMode(.v5)]

let package = Package(
    name: "WidgetHost",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "WidgetKit", targets: ["WidgetKit"]),
        .library(name: "AppIntents", targets: ["AppIntents"]),
        .library(name: "ActivityKit", targets: ["ActivityKit"]),
        .library(name: "Push", targets: ["Push"]),
        .library(name: "APNs", targets: ["APNs"]),
        .library(name: "JSON", targets: ["JSON"]),
        .library(name: "SharedState", targets: ["SharedState"]),
        .library(name: "PostgresStore", targets: ["PostgresStore"]),
        .library(name: "DeepLinks", targets: ["DeepLinks"]),
        .library(name: "WidgetHost", targets: ["WidgetHost"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "WidgetHostServer", targets: ["WidgetHostServer"]),
        .library(name: "DemoWidgets", targets: ["DemoWidgets"]),
        .library(name: "TapCharts", targets: ["TapCharts"]),
        .library(name: "WidgetHostTesting", targets: ["WidgetHostTesting"]),
        .library(name: "WidgetHostCommandLine", targets: ["WidgetHostCommandLine"]),
        .executable(name: "widgethost", targets: ["widgethost"]),
        .executable(name: "widgethost-bench", targets: ["widgethost-bench"]),
    ],
    targets: [
        // C libraries from Debian packages.
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8", providers: [.apt(["libpcre2-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        // libcurl (libcurl4-openssl-dev) and libpq (libpq-dev): their headers at build time, the libraries opened
        // on first use (CLazyLibrary), so a daemon configured without APNs or PostgreSQL never maps them.
        .target(name: "CLazyLibrary"),
        .target(name: "CCurl", dependencies: ["CLazyLibrary"]),
        .target(name: "CLibPQ", dependencies: ["CLazyLibrary"]),
        // C helpers of DeepLinks' hot path: SSE2 byte classes (`pmovmskb`), a thread-local variable.
        .target(name: "CDeepLinks"),

        // JSON as the wire carries it: values, the strict parser and decoder, the writer, date-times. No I/O,
        // imports nothing of ours.
        .target(name: "JSON", swiftSettings: sharedSettings),

        // Apple-shaped model modules: no I/O, import nothing of ours but each other and JSON.
        .target(name: "HostBridge", swiftSettings: sharedSettings),
        .target(name: "AppIntents", dependencies: ["HostBridge", "JSON"], swiftSettings: sharedSettings),
        .target(name: "WidgetKit", dependencies: ["HostBridge", "AppIntents"], swiftSettings: sharedSettings),
        .target(name: "ActivityKit", dependencies: ["HostBridge"], swiftSettings: sharedSettings),

        // Storage and routing: know nothing of widgets.
        .target(name: "SharedState", dependencies: ["CSQLite"], swiftSettings: sharedSettings),
        .target(name: "DeepLinks", dependencies: ["CPCRE2", "CDeepLinks"], swiftSettings: sharedSettings),
        // PostgreSQL for what several daemons share (Docs/postgres.md): connection, typed errors with SQLSTATE, a
        // pool, transactions with retry, migrations. Knows nothing of widgets.
        .target(name: "PostgresStore", dependencies: ["CLibPQ"], swiftSettings: sharedSettings),

        // The server side of pushes: payload builders, a checker that decodes content as the device does, the token
        // registry (and the planner and its outbox, on SQLite). Independent of the engine, so a server can use it
        // without it.
        .target(name: "Push", dependencies: ["ActivityKit", "JSON", "SharedState", "PostgresStore"],
                swiftSettings: sharedSettings),
        // Delivering the outbox to APNs: the team key and its ES256 provider token (OpenSSL), an HTTP/2 client on
        // libcurl's multi interface, and the sender that claims, sends and records.
        .target(name: "APNs", dependencies: ["Push", "SharedState", "JSON", "CCurl", "COpenSSL"],
                swiftSettings: sharedSettings),

        // The engine, the demo catalog, the HTTP layer and the executables.
        .target(
            name: "WidgetHost",
            dependencies: ["HostBridge", "JSON", "WidgetKit", "AppIntents", "ActivityKit", "Push", "SharedState", "DeepLinks",
                           "PostgresStore", "COpenSSL"],
            swiftSettings: sharedSettings
        ),
        .target(
            name: "DemoWidgets",
            dependencies: ["WidgetKit", "AppIntents", "ActivityKit", "JSON", "WidgetHost", "SharedState"],
            swiftSettings: sharedSettings
        ),
        // Pictures of tap reports and Live Activity histories (SVG), apart from the engine's core.
        .target(name: "TapCharts", dependencies: ["WidgetHost", "ActivityKit", "JSON"], swiftSettings: sharedSettings),
        // A test harness for users' widgets and interactive intents (no test framework inside: assert with yours).
        .target(
            name: "WidgetHostTesting",
            dependencies: ["WidgetHost", "SharedState", "WidgetKit", "AppIntents"],
            swiftSettings: sharedSettings
        ),
        // A generic HTTP/1.1 server on libmicrohttpd: routing, JSON errors, logs, metrics. Knows nothing of widgets.
        .target(name: "HTTPServer", dependencies: ["JSON", "CMicroHTTPD"], swiftSettings: sharedSettings),
        // The /v1 API over the engine, and the dashboard's files (compiled into the binary: nothing read at run time).
        .target(
            name: "WidgetHostServer",
            dependencies: ["JSON", "HTTPServer", "WidgetHost", "WidgetKit", "AppIntents", "ActivityKit", "Push",
                           "SharedState", "DeepLinks", "TapCharts", "APNs", "PostgresStore"],
            resources: [.embedInCode("Dashboard/Files")],
            swiftSettings: sharedSettings
        ),
        // `serve` and `perform` over any app's catalog: the demo binary and users' own binaries call it.
        .target(
            name: "WidgetHostCommandLine",
            dependencies: ["JSON", "HTTPServer", "WidgetHost", "WidgetHostServer", "SharedState", "DeepLinks",
                           "AppIntents", "WidgetKit", "APNs", "PostgresStore", "Push"],
            swiftSettings: sharedSettings
        ),
        .executableTarget(
            name: "widgethost",
            dependencies: ["JSON", "HTTPServer", "WidgetHost", "WidgetHostServer", "WidgetHostCommandLine", "DemoWidgets",
                           "TapCharts", "SharedState", "DeepLinks", "ActivityKit", "Push", "PostgresStore"],
            swiftSettings: sharedSettings
        ),
        .executableTarget(
            name: "widgethost-bench",
            dependencies: ["WidgetHost", "DemoWidgets", "SharedState", "DeepLinks", "CSQLite", "CPCRE2", "Push", "JSON",
                           "ActivityKit", "APNs", "PostgresStore", "COpenSSL"],
            swiftSettings: sharedSettings
        ),
        // A child process for the crash-durability tests: writes, acknowledges, and gets SIGKILLed.
        .executableTarget(
            name: "sharedstate-crashwriter",
            dependencies: ["SharedState"],
            swiftSettings: sharedSettings
        ),

        // A child process for the interactive-intent crash tests: performs with idempotency keys, gets SIGKILLed;
        // or taps a demo widget and kills itself between the commit and the reloads; or plans pushes until killed.
        .executableTarget(
            name: "intents-crashperformer",
            dependencies: ["WidgetHost", "WidgetHostTesting", "DemoWidgets", "WidgetKit", "SharedState", "AppIntents",
                           "Push", "JSON"],
            swiftSettings: sharedSettings
        ),

        // Child processes in tests: waiting for them off Swift's cooperative pool, reading their output as it comes.
        .target(name: "ProcessTestSupport", path: "Tests/ProcessTestSupport", swiftSettings: sharedSettings),
        .testTarget(name: "SharedStateTests", dependencies: ["SharedState", "CSQLite", "ProcessTestSupport"],
                    swiftSettings: sharedSettings),
        // A throwaway PostgreSQL cluster (initdb in a temporary directory, a Unix socket) for the tests that need one.
        .target(name: "PostgresTestSupport", path: "Tests/PostgresTestSupport", swiftSettings: sharedSettings),
        .testTarget(name: "PostgresStoreTests", dependencies: ["PostgresStore", "PostgresTestSupport"],
                    swiftSettings: sharedSettings),
        .testTarget(name: "JSONTests", dependencies: ["JSON"], swiftSettings: sharedSettings),
        // The checker is held to the engine's device side (WidgetHost) on a table of content states.
        .testTarget(name: "PushTests", dependencies: ["Push", "ActivityKit", "JSON", "SharedState", "WidgetHost",
                                                      "PostgresStore", "PostgresTestSupport"],
                    swiftSettings: sharedSettings),
        // The APNs sender end to end against the local APNs (Tests/apns), and its crash test's child process.
        .target(name: "APNsTestSupport", dependencies: ["HTTPServer", "HTTPTestSupport"], path: "Tests/APNsTestSupport",
                swiftSettings: sharedSettings),
        .testTarget(name: "APNsTests", dependencies: ["APNs", "Push", "SharedState", "JSON", "APNsTestSupport",
                                                      "ProcessTestSupport", "PostgresStore", "PostgresTestSupport",
                                                      "CLazyLibrary"],
                    swiftSettings: sharedSettings),
        .executableTarget(name: "apns-crashsender", dependencies: ["APNs", "Push", "SharedState", "PostgresStore"],
                          swiftSettings: sharedSettings),
        .testTarget(name: "DeepLinksTests", dependencies: ["DeepLinks", "CDeepLinks"], swiftSettings: sharedSettings),
        .testTarget(name: "ModelTests", dependencies: ["WidgetKit", "AppIntents", "HostBridge"], swiftSettings: sharedSettings),
        .testTarget(
            name: "ModelCompatTests",
            dependencies: ["WidgetKit", "AppIntents", "ActivityKit"],
            swiftSettings: swift5Settings
        ),
        .testTarget(
            name: "WidgetHostTests",
            dependencies: ["WidgetHost", "WidgetHostTesting", "DemoWidgets", "TapCharts", "WidgetKit", "AppIntents", "ActivityKit",
                           "Push", "SharedState", "ProcessTestSupport", "PostgresStore", "PostgresTestSupport"],
            swiftSettings: sharedSettings
        ),
        .testTarget(name: "CLITests", dependencies: ["JSON", "SharedState", "ProcessTestSupport", "PostgresTestSupport"],
                    swiftSettings: sharedSettings),
        // A blocking HTTP/1.1 client over POSIX sockets (TCP, IPv6, Unix) shared by the HTTP test targets.
        .target(name: "HTTPTestSupport", dependencies: ["HTTPServer", "ProcessTestSupport"], path: "Tests/HTTPTestSupport",
                swiftSettings: sharedSettings),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "JSON", "HTTPTestSupport", "ProcessTestSupport"],
                    swiftSettings: sharedSettings),
        // The daemon end to end: in-process over real sockets, and the built binary as a child process.
        .testTarget(
            name: "DaemonTests",
            dependencies: ["HTTPTestSupport", "ProcessTestSupport", "JSON", "HTTPServer", "WidgetHostServer", "WidgetHost",
                           "DemoWidgets", "SharedState", "DeepLinks", "ActivityKit", "APNsTestSupport", "PostgresStore",
                           "PostgresTestSupport"],
            swiftSettings: sharedSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
