import Foundation

/// A push as APNs delivers it to the device: its `apns-*` headers, its address, and its JSON payload's bytes.
public struct DevicePush: Sendable {
    /// `apns-push-type`: `liveactivity`.
    public var pushType: String?
    /// `apns-topic`: `<bundle id>.push-type.liveactivity`.
    public var topic: String?
    /// `apns-priority`: 5 or 10 (10 when absent).
    public var priority: Int?
    /// `apns-channel-id`, for a broadcast.
    public var channelID: String?
    /// The device token the push was sent to (an update or push-to-start token), for a push that is not a broadcast.
    public var deviceToken: Data?
    /// The payload, as sent.
    public var payload: Data

    /// Creates a push.
    public init(pushType: String?, topic: String?, priority: Int? = nil, channelID: String? = nil,
                deviceToken: Data? = nil, payload: Data) {
        self.pushType = pushType
        self.topic = topic
        self.priority = priority
        self.channelID = channelID
        self.deviceToken = deviceToken
        self.payload = payload
    }
}

/// A push APNs itself would refuse (it never reaches the device): the header or payload at fault.
public enum DevicePushError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The payload is larger than APNs takes (`PayloadTooLarge`).
    case payloadTooLarge(size: Int, limit: Int)
    /// A required header is missing (`MissingTopic`, `InvalidPushType`).
    case missingHeader(String)
    /// `apns-push-type` is not `liveactivity` (`InvalidPushType`).
    case unsupportedPushType(String)
    /// `apns-topic` does not name the app's Live Activity topic (`TopicDisallowed`).
    case badTopic(String, expected: String)
    /// `apns-priority` is not 5 or 10 (`BadPriority`).
    case badPriority(String)
    /// Neither a device token nor a channel, or both (`MissingDeviceToken`).
    case badAddress(String)
    /// The payload is not a JSON object with an `aps` object (`PayloadEmpty`, `BadPayload`).
    case badPayload(String)

    /// The APNs reason this stands for.
    public var apnsReason: String {
        switch self {
        case .payloadTooLarge: "PayloadTooLarge"
        case .missingHeader("apns-topic"): "MissingTopic"
        case .missingHeader, .unsupportedPushType: "InvalidPushType"
        case .badTopic: "TopicDisallowed"
        case .badPriority: "BadPriority"
        case .badAddress: "MissingDeviceToken"
        case .badPayload: "BadPayload"
        }
    }

    public var description: String {
        switch self {
        case .payloadTooLarge(let size, let limit): "the payload is \(size) bytes; APNs takes at most \(limit)"
        case .missingHeader(let name): "the header \(name) is missing"
        case .unsupportedPushType(let type): "apns-push-type is '\(type)'; a Live Activity push is 'liveactivity'"
        case .badTopic(let topic, let expected): "apns-topic is '\(topic)'; this device takes '\(expected)'"
        case .badPriority(let value): "apns-priority is '\(value)'; it must be 5 or 10"
        case .badAddress(let detail): detail
        case .badPayload(let detail): "the payload \(detail)"
        }
    }
}

/// What the device did with a push: for each activity it reached, applied or ignored and why.
public struct PushDelivery: Sendable, Hashable {
    /// The payload's `event`, when it had one.
    public var event: String?
    /// One result per activity the push reached; one without an activity when it reached none.
    public var results: [Result]

    /// Whether the push changed anything on the screen.
    public var applied: Bool { results.contains { $0.outcome == .applied } }

    /// What the push did to one activity.
    public struct Result: Sendable, Hashable {
        /// The activity (for a start, the one it started), or `nil` when the push reached none.
        public var activityID: String?
        /// Applied, or ignored with the reason.
        public var outcome: ActivityUpdateOutcome
    }
}
