// iOS 18 controls as an app writes them (views left out): a focus toggle whose intent writes the App Group's
// defaults and whose value provider reads them back, a button that ends every session, and the iOS 26 widget
// push handler.
import AppIntents
import Foundation
import WidgetKit

struct ToggleFocusIntent: SetValueIntent {
    static var title: LocalizedStringResource = "Focus"

    @Parameter(title: "Focusing")
    var value: Bool

    func perform() async throws -> some IntentResult {
        UserDefaults(suiteName: "group.com.example.focus")?.set(value, forKey: "isFocusing")
        ControlCenter.shared.reloadControls(ofKind: "com.example.focus.button")
        return .result()
    }
}

struct FocusValueProvider: ControlValueProvider {
    var previewValue: Bool { false }

    func currentValue() async throws -> Bool {
        UserDefaults(suiteName: "group.com.example.focus")?.bool(forKey: "isFocusing") ?? false
    }
}

struct EndAllSessionsIntent: AppIntent {
    static var title: LocalizedStringResource = "End all sessions"

    func perform() async throws -> some IntentResult {
        UserDefaults(suiteName: "group.com.example.focus")?.set(false, forKey: "isFocusing")
        ControlCenter.shared.reloadAllControls()
        WidgetCenter.shared.reloadTimelines(ofKind: "FocusWidget")
        return .result()
    }
}

struct TimerConfiguration: ControlConfigurationIntent {
    static var title: LocalizedStringResource = "Timer"

    @Parameter(title: "Minutes", default: 25)
    var minutes: Int
}

struct TimerValueProvider: AppIntentControlValueProvider {
    func previewValue(configuration: TimerConfiguration) -> Int {
        configuration.minutes
    }

    func currentValue(configuration: TimerConfiguration) async throws -> Int {
        let left = UserDefaults(suiteName: "group.com.example.focus")?.integer(forKey: "minutesLeft") ?? 0
        return min(left, configuration.minutes)
    }
}

struct FocusPushHandler: WidgetPushHandler {
    func pushTokenDidChange(_ pushInfo: WidgetPushInfo, widgets: [WidgetInfo]) {
        let hex = pushInfo.token.map { String(format: "%02x", $0) }.joined()
        UserDefaults(suiteName: "group.com.example.focus")?.set(hex, forKey: "widgetPushToken")
        UserDefaults(suiteName: "group.com.example.focus")?.set(widgets.map(\.kind), forKey: "pushedKinds")
    }
}
