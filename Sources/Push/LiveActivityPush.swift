import ActivityKit
import Foundation
import JSON

/// A Live Activity push's payload, built from Swift values: `{"aps": {"event": …, "timestamp": …, …}}`.
///
/// The content state is written as the app's `JSONDecoder` reads it (dates as seconds since 2001-01-01, keys as the
/// type's `CodingKeys`), while `timestamp`, `stale-date` and `dismissal-date` are whole seconds since 1970, as the
/// device reads them: mixing the two epochs up is the commonest way to send a push the device quietly drops.
/// ``payload()`` refuses (``PushBuildError``) what the device would drop.
public struct LiveActivityPush: Sendable, Hashable {
    /// What the push does.
    public var event: LiveActivityEvent
    /// When the server made the update; the device drops a push whose timestamp is not later than the last one.
    public var timestamp: Date
    /// The `content-state`, as JSON (``setContentState(_:)`` writes it from the app's `ContentState`).
    public var contentState: JSONValue?
    /// When the content goes stale.
    public var staleDate: Date?
    /// When an ended activity leaves the Lock Screen (`end` only).
    public var dismissalDate: Date?
    /// Relevance among the app's activities (any finite number; the highest gets the Dynamic Island).
    public var relevanceScore: Double?
    /// An alert shown with the push (a `start` needs one).
    public var alert: LiveActivityAlert?
    /// The attributes type's name, as ``ActivityAttributesType/name`` (`start` only).
    public var attributesType: String?
    /// The attributes, as JSON (`start` only).
    public var attributes: JSONValue?
    /// Whether a started activity gets its own update token (`input-push-token: 1`, `start` only).
    public var inputPushToken = false

    /// Creates a push with no content; set the members the event needs.
    public init(event: LiveActivityEvent, timestamp: Date) {
        self.event = event
        self.timestamp = timestamp
    }

    /// An update showing `state`.
    /// - Throws: `EncodingError` when the state does not encode (a non-finite `Double`).
    public static func update<State: Encodable>(_ state: State, timestamp: Date, staleDate: Date?,
                                                alert: LiveActivityAlert? = nil) throws -> LiveActivityPush {
        var push = LiveActivityPush(event: .update, timestamp: timestamp)
        try push.setContentState(state)
        push.staleDate = staleDate
        push.alert = alert
        return push
    }

    /// An end, with final content when `state` is given.
    /// - Throws: `EncodingError` when the state does not encode.
    public static func end<State: Encodable>(_ state: State?, timestamp: Date,
                                             dismissalDate: Date?) throws -> LiveActivityPush {
        var push = LiveActivityPush(event: .end, timestamp: timestamp)
        if let state { try push.setContentState(state) }
        push.dismissalDate = dismissalDate
        return push
    }

    /// A push-to-start of an `Attributes` activity; `attributes-type` is the type's name as the device knows it.
    /// - Throws: `EncodingError` when the attributes or state do not encode.
    public static func start<Attributes: ActivityAttributes>(
        _ attributes: Attributes, state: Attributes.ContentState, alert: LiveActivityAlert, timestamp: Date,
        staleDate: Date? = nil, inputPushToken: Bool = true
    ) throws -> LiveActivityPush {
        var push = LiveActivityPush(event: .start, timestamp: timestamp)
        push.attributesType = ActivityAttributesType(Attributes.self).name
        push.attributes = try PushCoding.json(attributes)
        try push.setContentState(state)
        push.alert = alert
        push.staleDate = staleDate
        push.inputPushToken = inputPushToken
        return push
    }

    /// Sets `content-state` to `state` as the app's `JSONEncoder` (default strategies) writes it.
    /// - Throws: `EncodingError` when the state does not encode.
    public mutating func setContentState<State: Encodable>(_ state: State) throws {
        contentState = try PushCoding.json(state)
    }

    /// The payload's bytes: compact JSON, members sorted.
    /// - Throws: ``PushBuildError`` naming the first member the device would not take.
    public func payload() throws(PushBuildError) -> Data {
        let payload = JSONValue.object(["aps": try aps()])
        return try PushCoding.bytes(payload)
    }

    /// The `aps` object, checked.
    func aps() throws(PushBuildError) -> JSONValue {
        var aps: [String: JSONValue] = ["event": .string(event.rawValue),
                                        "timestamp": try PushCoding.seconds(timestamp, field: "timestamp")]
        if let staleDate {
            guard staleDate > timestamp else {
                throw PushBuildError(field: "stale-date", reason: "must be after timestamp, or the content arrives stale")
            }
            aps["stale-date"] = try PushCoding.seconds(staleDate, field: "stale-date")
        }
        if let dismissalDate {
            guard event == .end else {
                throw PushBuildError(field: "dismissal-date", reason: "only an end push takes one; the device ignores it")
            }
            aps["dismissal-date"] = try PushCoding.seconds(dismissalDate, field: "dismissal-date")
        }
        if let relevanceScore {
            guard relevanceScore.isFinite else {
                throw PushBuildError(field: "relevance-score", reason: "must be a finite number")
            }
            aps["relevance-score"] = .double(relevanceScore)
        }
        if let contentState { aps["content-state"] = contentState }
        if let alert { aps["alert"] = try checked(alert) }
        if event != .end, contentState == nil {
            throw PushBuildError(field: "content-state", reason: "a \(event.rawValue) push needs one")
        }
        try startMembers(into: &aps)
        return .object(aps)
    }

    /// `attributes-type`, `attributes` and `input-push-token`, which only a start takes and a start needs.
    private func startMembers(into aps: inout [String: JSONValue]) throws(PushBuildError) {
        guard event == .start else {
            for (field, present) in [("attributes-type", attributesType != nil), ("attributes", attributes != nil),
                                     ("input-push-token", inputPushToken)] where present {
                throw PushBuildError(field: field, reason: "only a start push takes one")
            }
            return
        }
        guard alert != nil else {
            throw PushBuildError(field: "alert", reason: "a start push needs one; without it nothing starts")
        }
        guard let attributesType, !attributesType.isEmpty else {
            throw PushBuildError(field: "attributes-type", reason: "a start push needs the attributes type's name")
        }
        guard let attributes else { throw PushBuildError(field: "attributes", reason: "a start push needs them") }
        aps["attributes-type"] = .string(attributesType)
        aps["attributes"] = attributes
        if inputPushToken { aps["input-push-token"] = 1 }
    }

    private func checked(_ alert: LiveActivityAlert) throws(PushBuildError) -> JSONValue {
        for (name, text) in [("title", alert.title), ("body", alert.body)] {
            if case .localized(let key, _) = text, key.isEmpty {
                throw PushBuildError(field: "alert.\(name).loc-key", reason: "must not be empty")
            }
        }
        return alert.json
    }
}

extension LiveActivityPush {
    /// The headers to send this push with: priority 10 when it alerts and 5 when it does not (unless `priority` says
    /// otherwise), since only alerting updates are worth the high-priority budget.
    /// - Throws: ``PushBuildError`` for a start on a channel (channels only update and end), or what
    ///   ``PushHeaders/fields()`` refuses.
    public func headers(bundleIdentifier: String, priority: PushHeaders.Priority? = nil, expiration: Date? = nil,
                        channelID: String? = nil) throws(PushBuildError) -> PushHeaders {
        if channelID != nil, event == .start {
            throw PushBuildError(field: "apns-channel-id", reason: "a start cannot be broadcast; send it to the push-to-start token")
        }
        let headers = PushHeaders(pushType: .liveActivity, bundleIdentifier: bundleIdentifier,
                                  priority: priority ?? (alert == nil ? .low : .high), expiration: expiration,
                                  channelID: channelID)
        _ = try headers.fields()
        return headers
    }
}
