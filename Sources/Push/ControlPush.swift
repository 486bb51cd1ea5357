import Foundation

/// The one control push there is: `{"aps":{"content-changed":true}}`, sent with `apns-push-type: controls`.
///
/// Like a widget push, it carries no data: it tells the system that the app's controls show stale values, and each
/// placed control reads its value again through its value provider.
public enum ControlPush {
    /// The payload's bytes (the same as a widget push's).
    public static let payload = WidgetPush.payload

    /// The headers of a control push for the app `bundleIdentifier`; no priority (the system decides when controls
    /// read their values again).
    public static func headers(bundleIdentifier: String, expiration: Date? = nil) -> PushHeaders {
        PushHeaders(pushType: .controls, bundleIdentifier: bundleIdentifier, expiration: expiration)
    }
}
