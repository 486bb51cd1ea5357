import ActivityKit
import Foundation
import JSON

/// The activities' operations for hosts and the API: the same rules as app code's, with attributes and content
/// as JSON, decoded as the registered type decodes them.
extension LiveActivities {
    /// What an activity is started with, as JSON.
    public struct StartRequest: Sendable {
        /// The attributes type's name (registered with the catalog, or learnt from app code).
        public var attributesType: String
        /// The attributes.
        public var attributes: JSONValue
        /// The first content.
        public var content: ActivityContentValue
        /// How it takes remote updates.
        public var push: ActivityPushSubscription
        /// How long it stays in view.
        public var style: ActivityStyle
        /// The alert of a scheduled start.
        public var alert: ActivityAlert?
        /// When it starts, for a scheduled activity.
        public var startsAt: Date?

        /// Creates a request.
        public init(attributesType: String, attributes: JSONValue, content: ActivityContentValue,
                    push: ActivityPushSubscription = .none, style: ActivityStyle = .standard,
                    alert: ActivityAlert? = nil, startsAt: Date? = nil) {
            self.attributesType = attributesType
            self.attributes = attributes
            self.content = content
            self.push = push
            self.style = style
            self.alert = alert
            self.startsAt = startsAt
        }
    }

    /// Starts an activity as the app would.
    /// - Throws: ``ActivityError``: an unknown type, attributes or content that do not decode as the type, the
    ///   switches off, the limits, a bad channel id. Nothing is changed.
    public func start(_ request: StartRequest) throws -> ActivityRecord {
        try change { change in
            let type = try change.type(named: request.attributesType)
            let attributes = try ActivityDecoding.attributes(request.attributes, as: type)
            let content = try ActivityDecoding.content(request.content, as: type)
            return try change.start(ActivityChange.Start(
                type: type, attributes: attributes, content: content, push: request.push, style: request.style,
                alert: request.alert, startsAt: request.startsAt, timestamp: nil, source: .app))
        }
    }

    /// Shows new content as the app would.
    /// - Returns: `.applied`, or `.ignored` with the reason (the activity has ended; `timestamp` is not the latest).
    /// - Throws: ``ActivityError``: an unknown activity, content that does not decode. Nothing is changed.
    public func update(activityID: String, content: ActivityContentValue, alert: ActivityAlert? = nil,
                       timestamp: Date? = nil) throws -> ActivityUpdateOutcome {
        try change { change in
            let record = try change.record(id: activityID)
            let content = try ActivityDecoding.content(content, as: try change.type(named: record.attributesType))
            return try change.update(id: activityID, content: content, alert: alert, timestamp: timestamp, source: .app)
        }
    }

    /// Ends an activity as the app would.
    /// - Returns: `.applied`, or `.ignored` with the reason.
    /// - Throws: ``ActivityError``. Nothing is changed.
    public func end(activityID: String, content: ActivityContentValue? = nil,
                    dismissalPolicy: ActivityUIDismissalPolicy = .default,
                    timestamp: Date? = nil) throws -> ActivityUpdateOutcome {
        try change { change in
            let record = try change.record(id: activityID)
            let decoded = try content.map { try ActivityDecoding.content($0, as: try change.type(named: record.attributesType)) }
            return try change.end(id: activityID, content: decoded, dismissal: dismissalPolicy, timestamp: timestamp,
                                  source: .app)
        }
    }

    // MARK: Tokens

    /// Every update token the activity was issued, oldest first.
    public func tokens(activityID: String) throws -> [ActivityTokenRecord] {
        try read { change in
            _ = try change.record(id: activityID)
            return try change.tokens(where: "activity_id = ?", [.text(activityID)])
        }
    }

    /// Every push-to-start token the attributes type was issued, oldest first.
    public func pushToStartTokens(attributesType: String) throws -> [ActivityTokenRecord] {
        try read { change in
            _ = try change.type(named: attributesType)
            return try change.tokens(where: "attributes_type = ? AND activity_id IS NULL", [.text(attributesType)])
        }
    }

    /// Replaces the activity's update token now; `pushTokenUpdates` delivers the new one.
    /// - Throws: ``ActivityError/noPushToken(_:)`` for an activity without token pushes, or one that has ended.
    @discardableResult
    public func rotateToken(activityID: String) throws -> Data {
        try change { change in
            let record = try change.record(id: activityID)
            guard record.push == .token, record.state != .ended, record.state != .dismissed else {
                throw ActivityError.noPushToken(activityID)
            }
            return try change.issueToken(activityID: activityID, attributesType: record.attributesType, at: change.now,
                                         source: .system)
        }
    }

    /// Replaces (or issues) the attributes type's push-to-start token now; `pushToStartTokenUpdates` delivers it.
    @discardableResult
    public func rotatePushToStartToken(attributesType: String) throws -> Data {
        try change { change in
            _ = try change.type(named: attributesType)
            return try change.issueToken(activityID: nil, attributesType: attributesType, at: change.now,
                                         source: .system)
        }
    }

    // MARK: Time

    /// Applies every transition due by the clock's now (each at its own time).
    public func settle() throws {
        try change { _ in }
    }

    /// When the next transition comes due (a start, an end, staleness, a dismissal, a rotation), if any.
    public func nextTransitionDate() throws -> Date? {
        try read { change in
            var dates: [Date] = []
            if let transition = try change.db.scalar("SELECT min(next_transition_at) FROM activities", as: Date.self) {
                dates.append(transition)
            }
            if let rotation = try change.db.scalar("""
                SELECT min(rotates_at) FROM activity_tokens WHERE activity_id IS NULL AND replaced_at IS NULL
                """, as: Date.self) { dates.append(rotation) }
            return dates.min()
        }
    }
}

extension ActivityChange {
    func type(named name: String) throws -> ActivityAttributesType {
        guard let type = types[name] else { throw ActivityError.unknownAttributesType(name) }
        return type
    }
}

/// Decoding JSON as a registered type does on a device: `JSONDecoder` with its default strategies.
enum ActivityDecoding {
    static func attributes(_ json: JSONValue, as type: ActivityAttributesType) throws -> JSONValue {
        do {
            return try JSONValue(parsing: type.normalizedAttributes(Data(json.canonicalText.utf8)))
        } catch {
            throw ActivityError.undecodableAttributes(describe(error))
        }
    }

    static func content(_ content: ActivityContentValue, as type: ActivityAttributesType) throws -> ActivityContentValue {
        var decoded = content
        decoded.state = try state(content.state, as: type)
        return decoded
    }

    static func state(_ json: JSONValue, as type: ActivityAttributesType) throws -> JSONValue {
        do {
            return try JSONValue(parsing: type.normalizedContentState(Data(json.canonicalText.utf8)))
        } catch {
            throw ActivityError.undecodableContentState(describe(error))
        }
    }

    /// A decoding error as a sentence that names the path: `at "eta": expected Int, found a string`.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "at the top level" : "at \"" + keys.joined(separator: ".") + "\""
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context)): expected \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "\(path(context)): expected \(type), found null"
        case .keyNotFound(let key, let context):
            return "\(path(context)): the key \"\(key.stringValue)\" is missing"
        case .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
