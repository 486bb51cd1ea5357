import DemoWidgets
import Foundation
import SharedState
import WidgetHost

/// The demo engine the stack and taps commands work on: the demo catalog over the demo container, with the
/// engine store `widgethost.sqlite`, both under the data directory.
enum DemoEngine {
    static func open(dataDirectory: URL) throws -> WidgetEngine {
        let container = try AppGroupContainer(identifier: DemoSchema.appGroup, dataDirectory: dataDirectory)
        if try FixtureLoader.isEmpty(container) {
            try FixtureLoader.load(Fixtures(directory: Fixtures.bundledDirectory), into: container)
        }
        let store = try EngineStore(directory: dataDirectory)
        return WidgetEngine(catalog: DemoCatalog.make(), store: store, containers: [container])
    }

    /// Parses an ISO 8601 instant (`2026-11-25T10:00:00Z`, with or without fractional seconds).
    static func date(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
