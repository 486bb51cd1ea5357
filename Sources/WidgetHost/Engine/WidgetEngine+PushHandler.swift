import Foundation
import Push
import WidgetKit

/// The device's widget push token and the app's `WidgetPushHandler` (``WidgetCatalog/registerWidgetPushHandler(_:)``).
///
/// The engine is one device and issues one token for it, on first request; ``renewWidgetPushToken()`` replaces it
/// (as iOS does after a restore, say). The handler is handed the token with the placed widgets whenever the token
/// changes (issued, renewed) and whenever a widget is placed or removed, so the app's server knows both where to push
/// and which widgets there are. The handler runs with the engine bound, like any user code: its
/// `UserDefaults(suiteName:)` and `WidgetCenter` calls reach this engine.
///
/// Every token is also recorded in the push token registry (``Push/PushTokenRegistry``, in the engine's own
/// database) in the slot `widgets` of this device (``deviceIdentifier()``), with the kinds of the placed widgets: a
/// renewal rotates the slot, the old token staying in its history, marked replaced.
extension WidgetEngine {
    /// The name under which the device's identifier is kept in the engine store.
    static let deviceIdentifierSetting = "device-id"

    /// The device's identifier, as the push token registry names it: a UUID made on first request and kept in the
    /// engine store.
    public func deviceIdentifier() throws -> String {
        if let id = try store.read({ db in try store.setting(Self.deviceIdentifierSetting, db) }) { return id }
        return try store.write { db in
            if let id = try store.setting(Self.deviceIdentifierSetting, db) { return id }
            let id = UUID().uuidString.lowercased()
            try store.setSetting(Self.deviceIdentifierSetting, to: id, db)
            return id
        }
    }

    /// Replaces the device's widget push token with a new one: widget and control pushes to the old one are ignored
    /// from now on (`unknown_token`), the registry's widgets slot rotates, and the catalog's `WidgetPushHandler` is
    /// handed the new token.
    /// - Returns: The new token.
    @discardableResult
    public func renewWidgetPushToken() async throws -> Data {
        let token = PushTokenText.random()
        try store.write { db in try store.setSetting(Self.widgetPushTokenSetting, to: PushTokenText.hex(token), db) }
        try await tokenChanged(token)
        return token
    }

    /// A widget was placed or removed: with a handler registered, issues the token if needed and hands it over.
    /// Without one, no token is issued (an app without a handler never asks for one), but a token issued before
    /// has its registered widget kinds brought up to date.
    func placedWidgetsChanged() async throws {
        if catalog.widgetPushHandler != nil {
            try await tokenChanged(try issueWidgetPushToken().token)
        } else if let token = try store.read({ db in try store.setting(Self.widgetPushTokenSetting, db) })
                    .flatMap(PushTokenText.token) {
            try registerWidgetPushToken(token, widgets: try await currentConfigurations())
        }
    }

    /// Records `token` in the registry and hands it to the handler, if any, with the placed widgets.
    func tokenChanged(_ token: Data) async throws {
        let widgets = try await currentConfigurations()
        try registerWidgetPushToken(token, widgets: widgets)
        guard let handler = catalog.widgetPushHandler else { return }
        let info = WidgetPushInfo(token: token)
        try await withUserCode { handler(info, widgets) }
        widgetPushHandlerCalls += 1
    }

    private func registerWidgetPushToken(_ token: Data, widgets: [WidgetInfo]) throws {
        let now = clock
        let registry = try PushTokenRegistry(database: store.database, now: { now.now })
        let kinds = Array(Set(widgets.map(\.kind))).sorted()
        try registry.register(token, in: .widgets(device: try deviceIdentifier()), widgetKinds: kinds)
    }
}
