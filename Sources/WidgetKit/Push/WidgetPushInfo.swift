import Foundation

/// The device's widget push token, handed to a ``WidgetPushHandler``.
///
/// Mirrors [WidgetPushInfo](https://developer.apple.com/documentation/widgetkit/widgetpushinfo).
public struct WidgetPushInfo: Sendable, Hashable {
    /// The token APNs addresses widget pushes to.
    public let token: Data

    /// Describes a token; hosts call this.
    public init(token: Data) {
        self.token = token
    }
}
