// swift-tools-version: 6.0
// libFuzzer targets for DeepLinks, JSON and Push, kept out of the root package: an executable whose only entry
// point is LLVMFuzzerTestOneInput links only with `--sanitize=fuzzer`. See README.md.
import Foundation
import PackageDescription

/// The root package's identity is the name of its directory (a path dependency's identity).
let rootIdentity = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "WidgetHostFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "JSONFuzzer",
            dependencies: [.product(name: "JSON", package: rootIdentity)]
        ),
        .executableTarget(
            name: "PushCheckerFuzzer",
            dependencies: [.product(name: "Push", package: rootIdentity),
                           .product(name: "ActivityKit", package: rootIdentity)]
        ),
        .executableTarget(
            name: "RouteFileFuzzer",
            dependencies: [.product(name: "DeepLinks", package: rootIdentity)]
        ),
        .executableTarget(
            name: "RouteMatchFuzzer",
            dependencies: [.product(name: "DeepLinks", package: rootIdentity)]
        ),
        .executableTarget(
            name: "RouteReferenceFuzzer",
            dependencies: [.product(name: "DeepLinks", package: rootIdentity)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
