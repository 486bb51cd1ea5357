import Foundation
import WidgetKit

/// The app's `WidgetPushHandler` (``WidgetCatalog/registerWidgetPushHandler(_:)``): handed the device's widget push
/// token with the placed widgets when the token is issued and whenever a widget is placed or removed, so the app's
/// server knows both where to push and which widgets there are. The handler runs with the engine bound, like any
/// user code: its `UserDefaults(suiteName:)` and `WidgetCenter` calls reach this engine.
extension WidgetEngine {
    /// A widget was placed or removed: with a handler registered, issues the token if needed and hands it over.
    /// Without one, no token is issued: an app without a handler never asks for one.
    func placedWidgetsChanged() async throws {
        guard catalog.widgetPushHandler != nil else { return }
        try await handOverWidgetPushToken(try issueWidgetPushToken().token)
    }

    func handOverWidgetPushToken(_ token: Data) async throws {
        guard let handler = catalog.widgetPushHandler else { return }
        let widgets = try await currentConfigurations()
        let info = WidgetPushInfo(token: token)
        try await withUserCode { handler(info, widgets) }
        widgetPushHandlerCalls += 1
    }
}
