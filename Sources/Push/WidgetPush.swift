import Foundation

/// The one widget push there is: `{"aps":{"content-changed":true}}`, sent with `apns-push-type: widgets`.
///
/// It carries no data: it tells WidgetKit that the widgets' timelines are out of date, and the system reloads them
/// (within the widgets' budget) by asking the timeline provider again.
public enum WidgetPush {
    /// The payload's bytes.
    public static let payload = Data(#"{"aps":{"content-changed":true}}"#.utf8)

    /// The headers of a widget push for the app `bundleIdentifier`; no priority (the system decides when widgets
    /// reload).
    public static func headers(bundleIdentifier: String, expiration: Date? = nil) -> PushHeaders {
        PushHeaders(pushType: .widgets, bundleIdentifier: bundleIdentifier, expiration: expiration)
    }
}
