import AppIntents
import Foundation
import SharedState
import WidgetHost

/// What a `widgethost`-style executable serves: an app's widget kinds, its interactive intents, its App Group and
/// its deep-link routes.
///
/// The demo binary passes the demo catalog; a user's binary passes its own (``WidgetHostCommandLine``).
public struct HostedApp: Sendable {
    /// The name the executable prints in its usage and errors, e.g. `habits-host`.
    public var commandName: String
    /// The App Group identifier of the container the intents change and the widgets read.
    public var appGroup: String
    /// Makes the widget kinds (called once per command).
    public var catalog: @Sendable () -> WidgetCatalog
    /// Makes the interactive intents (called once per command).
    public var intents: @Sendable () -> IntentCatalog
    /// Makes the control kinds (called once per command); none by default.
    public var controls: @Sendable () -> ControlCatalog
    /// The route tables `--routes` defaults to; nil for `./Routes` when the current directory has one, else the
    /// WidgetHost checkout's `Routes/`.
    public var routesDirectory: String?
    /// Brings the container up to date each time a command opens it, before any widget or intent runs: the app's
    /// migrations, fixtures for a fresh container.
    public var prepareContainer: @Sendable (AppGroupContainer) throws -> Void

    /// Describes an app.
    /// - Parameters:
    ///   - commandName: The executable's name in messages.
    ///   - appGroup: The App Group identifier (what the app's code passes to `UserDefaults(suiteName:)`).
    ///   - catalog: Makes the widget kinds.
    ///   - intents: Makes the interactive intents; none by default.
    ///   - controls: Makes the control kinds; none by default.
    ///   - routesDirectory: The default of `--routes`.
    ///   - prepareContainer: Migrates (and fills) the container when a command opens it.
    public init(commandName: String, appGroup: String, catalog: @escaping @Sendable () -> WidgetCatalog,
                intents: @escaping @Sendable () -> IntentCatalog = { IntentCatalog() },
                controls: @escaping @Sendable () -> ControlCatalog = { ControlCatalog() }, routesDirectory: String? = nil,
                prepareContainer: @escaping @Sendable (AppGroupContainer) throws -> Void = { _ in }) {
        self.commandName = commandName
        self.appGroup = appGroup
        self.catalog = catalog
        self.intents = intents
        self.controls = controls
        self.routesDirectory = routesDirectory
        self.prepareContainer = prepareContainer
    }

    /// The app's container under `dataDirectory`, prepared.
    package func openContainer(dataDirectory: URL) throws -> AppGroupContainer {
        let container = try AppGroupContainer(identifier: appGroup, dataDirectory: dataDirectory)
        try prepareContainer(container)
        return container
    }
}
