import AppIntents
import Foundation
import WidgetHost
import WidgetKit

extension DemoCatalog {
    /// Control kind strings, as an app would declare them.
    public enum Control {
        /// A toggle: focus mode on or off (the App Group default ``DemoSchema/focusModeKey``).
        public static let focus = "com.example.widgethost.focus"
        /// A configurable toggle: whether its project is the one in focus (``DemoSchema/focusProjectKey``).
        public static let projectFocus = "com.example.widgethost.project-focus"
        /// A button: ends focus, whatever is in focus.
        public static let endFocus = "com.example.widgethost.end-focus"
    }

    /// The demo's controls: the focus toggle, the per-project focus toggle (configured with a project) and the
    /// end-focus button.
    public static func makeControls() -> ControlCatalog {
        var controls = ControlCatalog()
        controls.registerToggle(kind: Control.focus, intent: SetFocusModeIntent.self, provider: FocusModeValueProvider())
        controls.registerToggle(kind: Control.projectFocus, intent: FocusProjectIntent.self,
                                provider: ProjectFocusValueProvider())
        controls.registerButton(kind: Control.endFocus, intent: EndFocusIntent.self)
        return controls
    }
}

extension DemoSchema {
    /// The App Group default the focus toggle sets: `true` while focusing.
    public static let focusModeKey = "focusMode"
    /// The App Group default the project focus toggles set: the id of the project in focus, absent for none.
    public static let focusProjectKey = "focusProjectID"
}

/// The focus toggle's intent: sets focus mode in the App Group, and asks the task lists to reload (they show it).
public struct SetFocusModeIntent: SetValueIntent {
    public static let title: LocalizedStringResource = "Focus Mode"
    public static let description = IntentDescription("Turns focus mode on or off.")

    @Parameter(title: "Focusing")
    public var value: Bool

    public init() {}

    public func perform() async throws -> some IntentResult {
        UserDefaults(suiteName: DemoSchema.appGroup)?.set(value, forKey: DemoSchema.focusModeKey)
        if !value { UserDefaults(suiteName: DemoSchema.appGroup)?.removeObject(forKey: DemoSchema.focusProjectKey) }
        WidgetCenter.shared.reloadTimelines(ofKind: DemoCatalog.Kind.taskList)
        ControlCenter.shared.reloadControls(ofKind: DemoCatalog.Control.projectFocus)
        return .result()
    }
}

/// Reads focus mode from the App Group.
public struct FocusModeValueProvider: ControlValueProvider {
    public init() {}

    public var previewValue: Bool { false }

    public func currentValue() async throws -> Bool {
        UserDefaults(suiteName: DemoSchema.appGroup)?.bool(forKey: DemoSchema.focusModeKey) ?? false
    }
}

/// The project focus toggle's configuration: which project it focuses.
public struct SelectFocusProjectIntent: ControlConfigurationIntent {
    public static let title: LocalizedStringResource = "Select project"

    @Parameter(title: "Project")
    public var project: ProjectEntity

    public init() {}
}

/// The project focus toggle's intent: puts its project in focus (turning focus mode on), or takes it out; the other
/// project toggles and the focus toggle read their values again.
public struct FocusProjectIntent: SetValueIntent {
    public static let title: LocalizedStringResource = "Focus on Project"

    @Parameter(title: "Project")
    public var project: ProjectEntity

    @Parameter(title: "Focused")
    public var value: Bool

    public init() {}

    public func perform() async throws -> some IntentResult {
        let defaults = UserDefaults(suiteName: DemoSchema.appGroup)
        if value {
            defaults?.set(project.id, forKey: DemoSchema.focusProjectKey)
            defaults?.set(true, forKey: DemoSchema.focusModeKey)
        } else if defaults?.string(forKey: DemoSchema.focusProjectKey) == project.id {
            defaults?.removeObject(forKey: DemoSchema.focusProjectKey)
        }
        ControlCenter.shared.reloadControls(ofKind: DemoCatalog.Control.projectFocus)
        ControlCenter.shared.reloadControls(ofKind: DemoCatalog.Control.focus)
        return .result()
    }
}

/// Whether the configured project is the one in focus.
public struct ProjectFocusValueProvider: AppIntentControlValueProvider {
    public init() {}

    public func previewValue(configuration: SelectFocusProjectIntent) -> Bool { false }

    public func currentValue(configuration: SelectFocusProjectIntent) async throws -> Bool {
        UserDefaults(suiteName: DemoSchema.appGroup)?.string(forKey: DemoSchema.focusProjectKey) == configuration.project.id
    }
}

/// The end-focus button's intent: focus off, no project in focus; every control reads its value again. Fails when
/// focus is already off, so that pressing it twice says so rather than pretending to end something.
public struct EndFocusIntent: AppIntent {
    public static let title: LocalizedStringResource = "End Focus"

    public init() {}

    public func perform() async throws -> some IntentResult {
        let defaults = UserDefaults(suiteName: DemoSchema.appGroup)
        guard defaults?.bool(forKey: DemoSchema.focusModeKey) == true else { throw DemoIntentError.focusNotOn }
        defaults?.set(false, forKey: DemoSchema.focusModeKey)
        defaults?.removeObject(forKey: DemoSchema.focusProjectKey)
        WidgetCenter.shared.reloadTimelines(ofKind: DemoCatalog.Kind.taskList)
        ControlCenter.shared.reloadAllControls()
        return .result()
    }
}
