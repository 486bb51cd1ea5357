import Foundation

/// The `apns-*` headers of a Live Activity or widget push.
///
/// The topic is derived from the bundle identifier and the push type (`<bundle>.push-type.liveactivity`,
/// `<bundle>.push-type.widgets`, `<bundle>.push-type.controls`) so the two cannot disagree: a mismatch is APNs' `TopicDisallowed`.
public struct PushHeaders: Sendable, Hashable {
    /// `apns-push-type`.
    public enum PushType: String, Sendable, Hashable, CaseIterable {
        /// A Live Activity start, update or end.
        case liveActivity = "liveactivity"
        /// A widget reload (`content-changed`).
        case widgets
        /// A control reload (`content-changed`): the placed controls (Control Center, Lock Screen, Action button)
        /// read their values again.
        case controls
    }

    /// `apns-priority`: when APNs delivers.
    public enum Priority: Int, Sendable, Hashable, CaseIterable {
        /// Delivered when it suits the device's power; not counted against the high-priority budget.
        case low = 5
        /// Delivered at once; Live Activity pushes at 10 count against a budget (alerting updates need it).
        case high = 10
    }

    /// What kind of push.
    public var pushType: PushType
    /// The app's bundle identifier (`com.example.parcels`).
    public var bundleIdentifier: String
    /// `apns-priority`; `nil` sends none, which APNs takes as 10.
    public var priority: Priority?
    /// `apns-expiration`: until when APNs keeps trying; `nil` sends none.
    public var expiration: Date?
    /// `apns-channel-id`, for a broadcast Live Activity update.
    public var channelID: String?

    /// Creates headers.
    public init(pushType: PushType, bundleIdentifier: String, priority: Priority? = nil, expiration: Date? = nil,
                channelID: String? = nil) {
        self.pushType = pushType
        self.bundleIdentifier = bundleIdentifier
        self.priority = priority
        self.expiration = expiration
        self.channelID = channelID
    }

    /// `apns-topic`: the bundle identifier and the push type's suffix.
    public var topic: String { bundleIdentifier + Self.topicSuffix(pushType) }

    /// The suffix APNs requires of `apns-topic` for a push type.
    public static func topicSuffix(_ type: PushType) -> String { ".push-type." + type.rawValue }

    /// The header fields in the order they are sent, names in lower case (HTTP/2).
    /// - Throws: ``PushBuildError`` for an empty or spaced bundle identifier, a channel on a widget push, an empty
    ///   channel id, or an expiration before 1970.
    public func fields() throws(PushBuildError) -> [(name: String, value: String)] {
        guard !bundleIdentifier.isEmpty, !bundleIdentifier.contains(where: \.isWhitespace) else {
            throw PushBuildError(field: "apns-topic", reason: "the bundle identifier must be non-empty, without spaces")
        }
        var fields: [(name: String, value: String)] = [("apns-push-type", pushType.rawValue), ("apns-topic", topic)]
        if let priority { fields.append(("apns-priority", String(priority.rawValue))) }
        if let expiration {
            let seconds = expiration.timeIntervalSince1970.rounded(.down)
            guard seconds >= 0, seconds < PushCoding.endOfDates else {
                throw PushBuildError(field: "apns-expiration", reason: "must be seconds since 1970, not before 1970")
            }
            fields.append(("apns-expiration", String(Int(seconds))))
        }
        if let channelID {
            guard pushType == .liveActivity else {
                throw PushBuildError(field: "apns-channel-id", reason: "only Live Activity pushes are broadcast")
            }
            guard !channelID.isEmpty else { throw PushBuildError(field: "apns-channel-id", reason: "must not be empty") }
            fields.append(("apns-channel-id", channelID))
        }
        return fields
    }

    /// The fields as a dictionary, as ``PushChecker`` takes them.
    /// - Throws: What ``fields()`` throws.
    public func dictionary() throws(PushBuildError) -> [String: String] {
        Dictionary(try fields(), uniquingKeysWith: { first, _ in first })
    }
}
