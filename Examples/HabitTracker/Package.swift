// swift-tools-version: 6.0
import Foundation
import PackageDescription

// A habit-tracker widget written as for iOS, tested with WidgetHarness and served by its own daemon. It depends on
// the WidgetHost checkout two folders up. SwiftPM names a path dependency after its folder (not after the name in
// its manifest), so `.product(..., package:)` must say that folder's name: read it here rather than hard-code
// "WidgetHost", which breaks in a clone named otherwise. With a URL dependency it is the URL's last component
// (`https://github.com/you/WidgetHost.git` -> "WidgetHost").
let widgetHostCheckout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../..").standardizedFileURL
let widgetHost = widgetHostCheckout.lastPathComponent

let package = Package(
    name: "HabitTracker",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../.."),
    ],
    targets: [
        // The widget extension's code: WidgetKit and AppIntents only, as on iOS (plus WidgetHost for the shared
        // tables, behind `#if canImport(WidgetHost)`).
        .target(
            name: "HabitWidgets",
            dependencies: [
                .product(name: "WidgetKit", package: widgetHost),
                .product(name: "AppIntents", package: widgetHost),
                .product(name: "WidgetHost", package: widgetHost),
                .product(name: "SharedState", package: widgetHost),
            ]
        ),
        // The daemon serving the habit widgets: `habits-host serve`, with every option of `widgethost serve`.
        .executableTarget(
            name: "habits-host",
            dependencies: ["HabitWidgets", .product(name: "WidgetHostCommandLine", package: widgetHost)]
        ),
        .testTarget(
            name: "HabitWidgetsTests",
            dependencies: [
                "HabitWidgets",
                .product(name: "WidgetHostTesting", package: widgetHost),
                .product(name: "WidgetHost", package: widgetHost),
                .product(name: "SharedState", package: widgetHost),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
