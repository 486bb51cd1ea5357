import DemoWidgets
import Foundation
import JSON
import SharedState
import WidgetHost
import WidgetHostCommandLine

/// The demo engine the stack and taps commands work on: the demo catalog over the demo container, with the
/// engine store `widgethost.sqlite`, both under the data directory.
enum DemoEngine {
    /// The demo as `serve` and `perform` serve it: a fresh container gets the bundled fixtures.
    static let app = HostedApp(commandName: "widgethost", appGroup: DemoSchema.appGroup,
                               catalog: { DemoCatalog.make() }, intents: { DemoCatalog.makeIntents() },
                               controls: { DemoCatalog.makeControls() }) { container in
        if try FixtureLoader.isEmpty(container) {
            try FixtureLoader.load(Fixtures(directory: Fixtures.bundledDirectory), into: container)
        }
    }

    static func open(dataDirectory: URL) throws -> WidgetEngine {
        let container = try app.openContainer(dataDirectory: dataDirectory)
        let store = try EngineStore(directory: dataDirectory)
        return WidgetEngine(catalog: DemoCatalog.make(), store: store, containers: [container],
                            controls: DemoCatalog.makeControls())
    }
}
