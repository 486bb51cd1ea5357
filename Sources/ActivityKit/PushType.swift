/// How a Live Activity receives remote updates.
///
/// Mirrors [PushType](https://developer.apple.com/documentation/activitykit/pushtype).
public struct PushType: Sendable, Hashable {
    /// The two ways, in one value.
    public enum Kind: Sendable, Hashable {
        /// Its own update token, delivered through `Activity.pushTokenUpdates`.
        case token
        /// A broadcast channel, by its id.
        case channel(String)
    }

    /// Which way.
    public let kind: Kind

    private init(_ kind: Kind) {
        self.kind = kind
    }

    /// Updates sent to the activity's own push token.
    public static let token = PushType(.token)

    /// Updates broadcast on a channel.
    /// - Parameter channelId: The channel's id, as the push service created it.
    public static func channel(_ channelId: String) -> PushType {
        PushType(.channel(channelId))
    }
}
