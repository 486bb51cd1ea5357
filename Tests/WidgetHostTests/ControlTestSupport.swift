import AppIntents
import Foundation
import SharedState
import WidgetHost
import WidgetKit

/// A focus app's controls, written as for iOS: a focus toggle, a status toggle that only reads, a button that ends
/// focus, a toggle whose intent fails after writing, and a widget push handler that records what it was handed.
enum ControlTestSupport {
    static let group = "group.widgethost.control-tests"
    static let focus = "Focus.Toggle"
    static let status = "Focus.Status"
    static let end = "Focus.End"
    static let broken = "Focus.Broken"
    static let count = "Focus.Count"

    static var controls: ControlCatalog {
        var controls = ControlCatalog()
        controls.registerToggle(kind: focus, intent: SetFocusIntent.self, provider: FocusProvider())
        controls.registerToggle(kind: status, intent: NoteStatusIntent.self, provider: FocusProvider())
        controls.registerButton(kind: end, intent: EndFocusIntent.self)
        controls.registerToggle(kind: broken, intent: FailingFocusIntent.self, provider: FocusProvider())
        controls.registerButton(kind: count, intent: CountControlsIntent.self)
        return controls
    }

    static var widgets: WidgetCatalog {
        var catalog = WidgetCatalog()
        catalog.register(kind: "FocusWidget", displayName: "Focus", families: [.systemSmall],
                         provider: ScriptedProvider(offsets: [0], policy: { _ in .never }))
        catalog.registerWidgetPushHandler(RecordingPushHandler.self)
        return catalog
    }

    /// A widget whose provider asks ControlCenter to reload the focus toggle each time it runs.
    static var widgetsReloadingControls: WidgetCatalog {
        var catalog = WidgetCatalog()
        catalog.register(kind: "FocusSummary", displayName: "Focus summary", families: [.systemSmall],
                         provider: ReloadingFocusProvider())
        return catalog
    }

    /// The focus flag as the container holds it; nil when never written.
    static func isFocusing(_ container: AppGroupContainer) throws -> Bool? {
        guard case .bool(let value)? = try container.suite().readValue(forKey: "focus.on") else { return nil }
        return value
    }
}

/// An engine on a virtual clock and a runner, over a container in a fresh temporary directory.
struct ControlFixture {
    let container: AppGroupContainer
    let engine: WidgetEngine
    let runner: IntentRunner

    let directory: URL

    init(widgets: WidgetCatalog = WidgetCatalog(), directory: URL? = nil) throws {
        let directory = directory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("widgethost-controls-\(UUID().uuidString)", isDirectory: true)
        self.directory = directory
        container = try AppGroupContainer(identifier: ControlTestSupport.group, dataDirectory: directory)
        engine = WidgetEngine(catalog: widgets, store: try EngineStore(directory: directory),
                              clock: VirtualClock(start: Date(timeIntervalSince1970: 1_800_000_000)),
                              timeZone: TimeZone(identifier: "UTC")!, containers: [container],
                              controls: ControlTestSupport.controls)
        // No intents given: the controls' intents are added by the runner itself.
        runner = try IntentRunner(engine: engine, intents: IntentCatalog(), container: container)
    }
}

struct SetFocusIntent: SetValueIntent {
    static let title: LocalizedStringResource = "Focus"

    @Parameter(title: "Focusing")
    var value: Bool

    func perform() async throws -> some IntentResult {
        UserDefaults(suiteName: ControlTestSupport.group)?.set(value, forKey: "focus.on")
        ControlCenter.shared.reloadControls(ofKind: ControlTestSupport.status)
        WidgetCenter.shared.reloadTimelines(ofKind: "FocusWidget")
        return .result()
    }
}

/// Writes nothing: the status toggle only shows the flag.
struct NoteStatusIntent: SetValueIntent {
    static let title: LocalizedStringResource = "Status"

    @Parameter(title: "Shown")
    var value: Bool

    func perform() async throws -> some IntentResult { .result() }
}

struct EndFocusIntent: AppIntent {
    static let title: LocalizedStringResource = "End focus"

    func perform() async throws -> some IntentResult {
        UserDefaults(suiteName: ControlTestSupport.group)?.set(false, forKey: "focus.on")
        ControlCenter.shared.reloadAllControls()
        return .result()
    }
}

struct FocusUnavailable: Error {}

/// Writes the flag and asks for a reload, then throws: none of it may stay.
struct FailingFocusIntent: SetValueIntent {
    static let title: LocalizedStringResource = "Broken focus"

    @Parameter(title: "Focusing")
    var value: Bool

    func perform() async throws -> some IntentResult {
        UserDefaults(suiteName: ControlTestSupport.group)?.set(value, forKey: "focus.on")
        ControlCenter.shared.reloadAllControls()
        // Fails only when turning on, so the failure is the intent's own, not a test of an always-throwing body.
        guard !value else { throw FocusUnavailable() }
        return .result()
    }
}

struct FocusProvider: ControlValueProvider {
    var previewValue: Bool { false }

    func currentValue() async throws -> Bool {
        UserDefaults(suiteName: ControlTestSupport.group)?.bool(forKey: "focus.on") ?? false
    }
}

/// Records the token (hex) and the placed widgets' ids it was handed in the App Group, as an app would keep them
/// for its server.
struct RecordingPushHandler: WidgetPushHandler {
    func pushTokenDidChange(_ pushInfo: WidgetPushInfo, widgets: [WidgetInfo]) {
        let defaults = UserDefaults(suiteName: ControlTestSupport.group)
        defaults?.set(pushInfo.token.map { String(format: "%02x", $0) }.joined(), forKey: "push.token")
        defaults?.set(widgets.map(\.id), forKey: "push.widgets")
    }
}

/// A button whose intent answers how many controls `ControlCenter.shared.currentControls()` lists.
struct CountControlsIntent: AppIntent {
    static let title: LocalizedStringResource = "Count controls"

    func perform() async throws -> some IntentResult & ReturnsValue<Int> {
        .result(value: try await ControlCenter.shared.currentControls().count)
    }
}

/// A widget provider that asks for the focus toggle to be reloaded whenever it builds a timeline.
struct ReloadingFocusProvider: TimelineProvider, Sendable {
    func placeholder(in context: Context) -> CountEntry { CountEntry(date: .distantPast, label: "placeholder") }

    func getSnapshot(in context: Context, completion: @escaping (CountEntry) -> Void) {
        completion(CountEntry(date: .distantPast, label: "snapshot"))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<CountEntry>) -> Void) {
        ControlCenter.shared.reloadControls(ofKind: ControlTestSupport.focus)
        completion(Timeline(entries: [CountEntry(date: HostEnvironment.current?.now ?? Date(), label: "focus")],
                            policy: .never))
    }
}
