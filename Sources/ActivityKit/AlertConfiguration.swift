/// An alert shown with a Live Activity update: a title, a body and a sound.
///
/// Mirrors [AlertConfiguration](https://developer.apple.com/documentation/activitykit/alertconfiguration).
public struct AlertConfiguration: Sendable, Hashable {
    /// The sound an alert plays.
    public struct AlertSound: Sendable, Hashable {
        /// The sound's name; `nil` for the system's default sound.
        public let name: String?

        private init(name: String?) {
            self.name = name
        }

        /// The system's default alert sound.
        public static let `default` = AlertSound(name: nil)

        /// A sound file in the app's bundle.
        /// - Parameter name: The file's name.
        public static func named(_ name: String) -> AlertSound {
            AlertSound(name: name)
        }
    }

    /// The alert's title.
    public var title: LocalizedStringResource
    /// The alert's body.
    public var body: LocalizedStringResource
    /// The sound it plays.
    public var sound: AlertSound

    /// Creates an alert.
    public init(title: LocalizedStringResource, body: LocalizedStringResource, sound: AlertSound) {
        self.title = title
        self.body = body
        self.sound = sound
    }
}
