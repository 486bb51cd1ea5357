import Foundation
import JSON
import Push
import SharedState

/// Widget pushes, received as the device receives them: `{"aps":{"content-changed":true}}` with
/// `apns-push-type: widgets`, sent to the device's widget push token, reloads the device's placed widgets, each
/// reload charged to its budget (a widget out of budget is deferred, as for any budgeted reload).
extension WidgetEngine {
    /// The name under which the device's widget push token is kept in the engine store.
    static let widgetPushTokenSetting = "widget-push-token"

    /// The device's widget push token (widget and control pushes), issued on first request. Issuing it records it in
    /// the push token registry and hands it to the catalog's `WidgetPushHandler`
    /// (``WidgetCatalog/registerWidgetPushHandler(_:)``); see ``renewWidgetPushToken()``.
    public func widgetPushToken() async throws -> Data {
        let (token, isNew) = try issueWidgetPushToken()
        if isNew { try await tokenChanged(token) }
        return token
    }

    /// The stored token, or a new one stored now.
    func issueWidgetPushToken() throws -> (token: Data, isNew: Bool) {
        try store.write { db in
            if let text = try store.setting(Self.widgetPushTokenSetting, db), let token = PushTokenText.token(text) {
                return (token, false)
            }
            let token = PushTokenText.random()
            try store.setSetting(Self.widgetPushTokenSetting, to: PushTokenText.hex(token), db)
            return (token, true)
        }
    }

    /// Applies a widget push.
    /// - Returns: `.applied` with the reloads it ran, or `.ignored` with the reason (a token the device never
    ///   issued, a payload without `content-changed: true`); an ignored push changes nothing.
    /// - Throws: ``DevicePushError`` for what APNs itself would refuse (push type, topic, priority, size, not JSON).
    public func receiveWidgetPush(_ push: DevicePush) async throws -> WidgetPushDelivery {
        if let ignored = try await contentChangedPushIgnored(push, type: "widgets") { return ignored }
        let now = clock.now
        try store.write { db in try store.scheduleNow(configurationsWhere: "1 = 1", [], at: now, reason: .widgetPush, db) }
        return .applied(reloads: try await runDueReloads())
    }

    /// Checks a `widgets` or `controls` push as APNs and the device do.
    /// - Returns: Why the device ignores it (a token it never issued, no `content-changed: true`); nil to apply it.
    /// - Throws: ``DevicePushError`` for what APNs itself refuses.
    func contentChangedPushIgnored(_ push: DevicePush, type: String) async throws -> WidgetPushDelivery? {
        try Self.checkContentChangedPush(push, type: type)
        guard let token = push.deviceToken, token == (try await widgetPushToken()) else {
            let hex = push.deviceToken.map(PushTokenText.hex) ?? "(none)"
            return .ignored(reason: .unknownToken, detail: "the device's widget push token is not \(hex)")
        }
        let payload = try? JSONValue(parsing: push.payload)
        guard case .bool(true)? = payload?.objectValue?["aps"]?.objectValue?["content-changed"] else {
            return .ignored(reason: .missingContentChanged, detail: """
                a \(type) push is {"aps":{"content-changed":true}}; this one says nothing changed
                """)
        }
        return nil
    }

    private static func checkContentChangedPush(_ push: DevicePush, type: String) throws {
        guard push.payload.count <= ActivityRules.maximumPushPayloadSize else {
            throw DevicePushError.payloadTooLarge(size: push.payload.count, limit: ActivityRules.maximumPushPayloadSize)
        }
        guard let topic = push.topic else { throw DevicePushError.missingHeader("apns-topic") }
        let suffix = ".push-type." + type
        guard topic.hasSuffix(suffix), topic.utf8.count > suffix.utf8.count else {
            throw DevicePushError.badTopic(topic, expected: "<bundle id>" + suffix)
        }
        if let priority = push.priority, priority != 5, priority != 10 {
            throw DevicePushError.badPriority(String(priority))
        }
        guard push.channelID == nil, push.deviceToken != nil else {
            throw DevicePushError.badAddress("a \(type) push goes to the device's widget push token, not a channel")
        }
        do {
            _ = try JSONValue(parsing: push.payload)
        } catch {
            throw DevicePushError.badPayload("is not JSON: \(error)")
        }
    }
}

/// What the device did with a widget push.
public enum WidgetPushDelivery: Sendable {
    /// The placed widgets were reloaded (or deferred by their budget): the provider runs made.
    case applied(reloads: [ReloadRecord])
    /// Nothing was reloaded, for this reason.
    case ignored(reason: Reason, detail: String)

    /// Why a widget push changed nothing.
    public enum Reason: String, Sendable {
        /// The token is not the device's widget push token.
        case unknownToken = "unknown_token"
        /// The payload is not `{"aps":{"content-changed":true}}`.
        case missingContentChanged = "missing_content_changed"
    }
}
