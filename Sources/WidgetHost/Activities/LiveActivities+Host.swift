import ActivityKit
import Foundation
import JSON

/// The engine's activities as ActivityKit's host: what `Activity.request`, `update`, `end`, `activities`, the
/// streams and `ActivityAuthorizationInfo` reach, through the engine's binding (``WidgetEngine/runAppCode(_:)``).
///
/// ActivityKit's `update` and `end` cannot throw; a failure of the store there is lost to app code as it would be
/// on a device, and the history shows no update.
extension LiveActivities: ActivityHost {
    public func requestActivity(_ request: ActivityRequestDetails) throws -> ActivitySnapshot {
        do {
            let attributes = try JSONValue(parsing: request.attributes)
            let state = try JSONValue(parsing: request.content.state)
            return try change { change in
                try change.start(ActivityChange.Start(
                    type: request.type, attributes: attributes,
                    content: ActivityContentValue(state: state, staleDate: request.content.staleDate,
                                                  relevanceScore: request.content.relevanceScore),
                    push: ActivityPushSubscription(request.pushType), style: request.style,
                    alert: request.alert.map(ActivityAlert.init), startsAt: request.start, timestamp: nil,
                    source: .app)).snapshot
            }
        } catch let error as ActivityError {
            throw error.authorizationError
        } catch {
            throw ActivityAuthorizationError.persistenceFailure
        }
    }

    public func updateActivity(id: String, content: EncodedActivityContent, alert: AlertConfiguration?,
                               timestamp: Date?) async {
        guard let value = ActivityContentValue(content) else { return }
        _ = try? change { change in
            try change.update(id: id, content: value, alert: alert.map(ActivityAlert.init), timestamp: timestamp,
                              source: .app)
        }
    }

    public func endActivity(id: String, content: EncodedActivityContent?, dismissalPolicy: ActivityUIDismissalPolicy,
                            timestamp: Date?) async {
        let value = content.flatMap(ActivityContentValue.init)
        if content != nil && value == nil { return }
        _ = try? change { change in
            try change.end(id: id, content: value, dismissal: dismissalPolicy, timestamp: timestamp, source: .app)
        }
    }

    public func activitySnapshot(id: String) -> ActivitySnapshot? {
        try? activity(id: id).snapshot
    }

    public func activitySnapshots(attributesType: String) -> [ActivitySnapshot] {
        let records = (try? read { change in
            try change.records(where: "attributes_type = ? AND state <> 'dismissed'", [.text(attributesType)])
        }) ?? []
        return records.map(\.snapshot)
    }

    public func activityEvents(id: String) -> AsyncStream<ActivityHostEvent> {
        // Subscribed inside a change, so that no change can come between the token read and the subscription.
        let stream = try? change { change -> AsyncStream<ActivityHostEvent>? in
            let record = try change.record(id: id)
            guard record.state != .dismissed else { return nil }
            return observers.activityEvents(id: id, current: record.pushToken)
        }
        return (stream ?? nil) ?? AsyncStream { $0.finish() }
    }

    public func activityStarts(of type: ActivityAttributesType) -> AsyncStream<ActivitySnapshot> {
        learn(type)
        return observers.starts(of: type.name)
    }

    public func pushToStartToken(of type: ActivityAttributesType) -> Data? {
        try? pushToStartTokenIssuingIfNeeded(type)
    }

    public func pushToStartTokenUpdates(of type: ActivityAttributesType) -> AsyncStream<Data> {
        let stream = try? change { change in
            observers.pushToStartTokens(of: type.name, current: try change.pushToStartToken(of: type))
        }
        return stream ?? AsyncStream { $0.finish() }
    }

    public var activityAuthorization: ActivityAuthorization { authorization }

    public func activityAuthorizationUpdates() -> AsyncStream<ActivityAuthorization> {
        observers.authorization()
    }

    private func learn(_ type: ActivityAttributesType) {
        serialized.withLock { types in types[type.name] = types[type.name] ?? type }
    }

    private func pushToStartTokenIssuingIfNeeded(_ type: ActivityAttributesType) throws -> Data {
        try change { change in try change.pushToStartToken(of: type) }
    }
}

extension ActivityChange {
    /// The type's push-to-start token, issued now if it has none; the type is learnt on the way.
    mutating func pushToStartToken(of type: ActivityAttributesType) throws -> Data {
        types[type.name] = types[type.name] ?? type
        if let token = try currentToken(attributesType: type.name) { return token }
        return try issueToken(activityID: nil, attributesType: type.name, at: now, source: .app)
    }
}

extension ActivityContentValue {
    /// Content as ActivityKit encoded it; `nil` when its JSON does not parse (it always does: `JSONEncoder` wrote it).
    init?(_ encoded: EncodedActivityContent) {
        guard let state = try? JSONValue(parsing: encoded.state) else { return nil }
        self.init(state: state, staleDate: encoded.staleDate, relevanceScore: encoded.relevanceScore)
    }
}
