import DemoWidgets
import Foundation
import JSON
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

    /// The instant of option `--name`'s `text` (``DateTimeFormat/instant``: `2026-11-25T10:00:00Z`, with or without
    /// a fraction, `Z` or an offset).
    /// - Throws: ``OptionError`` naming the option, the text and what is wrong with it.
    static func date(_ text: String, option name: String) throws(OptionError) -> Date {
        do {
            return try DateTimeText.date(from: text, format: .instant)
        } catch {
            throw OptionError(message: "--\(name) needs a date-time such as 2026-11-25T10:00:00Z, got '\(text)': \(error)")
        }
    }
}
