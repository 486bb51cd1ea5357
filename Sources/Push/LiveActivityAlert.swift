import JSON

/// The alert of a Live Activity push: `{"title": …, "body": …, "sound": …}`.
///
/// A text is a plain string, or a key of the app's `Localizable.strings` with arguments, which the device fills in
/// its own language: `{"loc-key": "%@ is 2 stops away", "loc-args": ["Parcel"]}`.
public struct LiveActivityAlert: Sendable, Hashable {
    /// A title or a body.
    public enum Text: Sendable, Hashable {
        /// The text as it is shown.
        case plain(String)
        /// A localization key and its format arguments.
        case localized(key: String, arguments: [String])
    }

    /// The alert's title.
    public var title: Text
    /// The alert's body.
    public var body: Text
    /// A sound file in the app's bundle, `"default"` for the system's sound, or `nil` for none.
    public var sound: String?

    /// Creates an alert.
    public init(title: Text, body: Text, sound: String? = "default") {
        self.title = title
        self.body = body
        self.sound = sound
    }

    /// The alert as the payload's `alert` object.
    var json: JSONValue {
        var members: [String: JSONValue] = ["title": title.json, "body": body.json]
        if let sound { members["sound"] = .string(sound) }
        return .object(members)
    }
}

extension LiveActivityAlert.Text {
    var json: JSONValue {
        switch self {
        case .plain(let text): .string(text)
        case .localized(let key, let arguments): ["loc-key": .string(key), "loc-args": .array(arguments.map(JSONValue.string))]
        }
    }
}
