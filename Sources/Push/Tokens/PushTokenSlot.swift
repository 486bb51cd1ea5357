import Foundation

/// Where a push token belongs: what it lets a server reach.
///
/// A slot holds one current token; registering a new one replaces (rotates) it and keeps the old one in the
/// history. Identifiers are the host's own: a device id is whatever the app reports (an installation id, say).
public enum PushTokenSlot: Sendable, Hashable {
    /// A device's push-to-start token for one attributes type (`Activity<T>.pushToStartTokenUpdates`).
    case pushToStart(device: String, attributesType: String)
    /// One activity's update token (`activity.pushTokenUpdates`).
    case activity(id: String)
    /// A device's widget push token (`WidgetPushHandler.pushTokenDidChange`), for the widget kinds it names.
    case widgets(device: String)

    /// `push_to_start`, `activity` or `widgets`.
    public var kind: String {
        switch self {
        case .pushToStart: "push_to_start"
        case .activity: "activity"
        case .widgets: "widgets"
        }
    }

    /// The slot's key within its kind: `device attributesType`, the activity id, or the device.
    var key: String {
        switch self {
        case .pushToStart(let device, let type): device + "\u{1F}" + type
        case .activity(let id): id
        case .widgets(let device): device
        }
    }
}

/// One registration of a token in a slot, current or from the history.
public struct PushTokenRecord: Sendable, Hashable {
    /// The slot.
    public var slot: PushTokenSlot
    /// The token.
    public var token: Data
    /// The device, when the registration named one (always for push-to-start and widget tokens).
    public var device: String?
    /// The attributes type, for activity and push-to-start tokens when known.
    public var attributesType: String?
    /// The widget kinds a widget token reloads.
    public var widgetKinds: [String]
    /// When it was first registered.
    public var registeredAt: Date
    /// When a newer token replaced it in its slot.
    public var replacedAt: Date?
    /// When it was marked invalid (APNs answered `Unregistered`, say); an invalid token is never used again.
    public var invalidatedAt: Date?
    /// Why it was marked invalid.
    public var invalidReason: String?

    /// Whether a push may be sent to it: current and valid.
    public var isUsable: Bool { replacedAt == nil && invalidatedAt == nil }
}

/// What a registration did.
public enum PushTokenRegistration: Sendable, Hashable {
    /// The slot had no token; now it has this one.
    case created
    /// The slot's token was replaced; the old one stays in the history.
    case rotated(previous: Data)
    /// The slot already had this token: nothing changed (registration is idempotent).
    case unchanged
}

/// Why the registry refused a request. Nothing changed.
public enum PushTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The token was marked invalid; it is never used again, so it cannot be registered again either.
    case invalidated(token: String, reason: String)
    /// The token is registered in another slot: a token belongs to one device and one purpose.
    case registeredElsewhere(token: String, slot: String)
    /// No registration has this token.
    case unknownToken(String)
    /// An identifier (device, attributes type, activity id, widget kind) that is empty, over 256 bytes, or holds
    /// control characters.
    case invalidIdentifier(field: String, value: String)

    public var description: String {
        switch self {
        case .invalidated(let token, let reason):
            "the token \(token) was marked invalid (\(reason)) and is never used again"
        case .registeredElsewhere(let token, let slot): "the token \(token) is already registered as \(slot)"
        case .unknownToken(let token): "no registration has the token \(token)"
        case .invalidIdentifier(let field, let value):
            "\(field) '\(value)' is empty, longer than 256 bytes or holds control characters"
        }
    }
}
