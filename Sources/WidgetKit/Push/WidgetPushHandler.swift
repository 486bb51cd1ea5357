/// Receives the device's widget push token, to send to the app's server, which then reloads the widgets with
/// `apns-push-type: widgets` pushes.
///
/// The system creates the handler with `init()` and calls ``pushTokenDidChange(_:widgets:)`` when the token is
/// first issued, when it changes, and when the set of placed widgets changes.
///
/// Mirrors [WidgetPushHandler](https://developer.apple.com/documentation/widgetkit/widgetpushhandler).
public protocol WidgetPushHandler: Sendable {
    /// Creates the handler; the system does.
    init()

    /// Called with the current token and the placed widgets.
    ///
    /// - Parameters:
    ///   - pushInfo: The device's widget push token.
    ///   - widgets: The widgets placed now.
    func pushTokenDidChange(_ pushInfo: WidgetPushInfo, widgets: [WidgetInfo])
}
