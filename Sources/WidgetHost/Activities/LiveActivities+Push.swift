import ActivityKit
import Foundation
import JSON
import Push

/// Pushes, applied as a device applies them.
///
/// First what APNs itself checks (``DevicePushError``, nothing recorded: the push never reached the device). Then,
/// as iOS does, quietly: a push that cannot apply changes nothing on the screen and is recorded with its reason
/// (``ActivityIgnoreReason``) in the activity's history, or among ``unaddressedPushes()`` when it reached none.
extension LiveActivities {
    /// Applies a push.
    /// - Returns: What it did to each activity it reached.
    /// - Throws: ``DevicePushError`` for what APNs would refuse.
    public func deliver(_ push: DevicePush) throws -> PushDelivery {
        let payload = try checkHeaders(push)
        let aps = try LiveActivityPayload(aps: payload)
        return try change { change in
            var delivery = PushDelivery(event: aps.event, results: [])
            func ignored(_ reason: ActivityIgnoreReason, _ detail: String, activityID: String?) throws {
                let outcome = try change.ignore(reason, detail, of: activityID, source: .push, event: aps.event,
                                                payload: payload)
                delivery.results.append(PushDelivery.Result(activityID: activityID, outcome: outcome))
            }
            let targets: [ActivityRecord]
            if let channel = push.channelID {
                targets = try change.records(where: "channel_id = ? AND state <> 'dismissed'", [.text(channel)])
                if targets.isEmpty {
                    try ignored(.unknownToken, "no activity is subscribed to the channel '\(channel)'", activityID: nil)
                    return delivery
                }
            } else {
                let token = push.deviceToken ?? Data()
                guard let owner = try change.tokenOwner(token) else {
                    try ignored(.unknownToken, "the device never issued the token \(PushTokenText.hex(token))",
                                activityID: nil)
                    return delivery
                }
                if let replaced = owner.replacedAt {
                    let current = owner.activityID.map { try? change.currentToken(activityID: $0) }
                        ?? (try? change.currentToken(attributesType: owner.attributesType ?? ""))
                    try ignored(.replacedToken, """
                        the token was replaced at \(ActivityText.seconds(replaced))\
                        \((current ?? nil).map { " by " + PushTokenText.hex($0) } ?? "")
                        """, activityID: owner.activityID)
                    return delivery
                }
                guard let activityID = owner.activityID else {
                    try startActivity(owner.attributesType ?? "", aps, payload: payload, change: &change,
                                      delivery: &delivery)
                    return delivery
                }
                targets = [try change.record(id: activityID)]
            }
            for target in targets {
                let outcome = try apply(aps, to: target, payload: payload, change: &change)
                delivery.results.append(PushDelivery.Result(activityID: target.id, outcome: outcome))
            }
            return delivery
        }
    }

    /// Checks what APNs checks, and returns the payload as JSON.
    private func checkHeaders(_ push: DevicePush) throws -> JSONValue {
        guard push.payload.count <= ActivityRules.maximumPushPayloadSize else {
            throw DevicePushError.payloadTooLarge(size: push.payload.count, limit: ActivityRules.maximumPushPayloadSize)
        }
        guard let type = push.pushType else { throw DevicePushError.missingHeader("apns-push-type") }
        guard type == "liveactivity" else { throw DevicePushError.unsupportedPushType(type) }
        guard let topic = push.topic else { throw DevicePushError.missingHeader("apns-topic") }
        let suffix = ".push-type.liveactivity"
        let expected = (rules.bundleIdentifier ?? "<bundle id>") + suffix
        guard topic.hasSuffix(suffix), topic.utf8.count > suffix.utf8.count,
              rules.bundleIdentifier.map({ topic == $0 + suffix }) ?? true else {
            throw DevicePushError.badTopic(topic, expected: expected)
        }
        if let priority = push.priority, priority != 5, priority != 10 {
            throw DevicePushError.badPriority(String(priority))
        }
        switch (push.deviceToken, push.channelID) {
        case (nil, nil): throw DevicePushError.badAddress("the push names neither a device token nor apns-channel-id")
        case (.some, .some): throw DevicePushError.badAddress("the push names both a device token and apns-channel-id")
        default: break
        }
        let payload: JSONValue
        do {
            payload = try JSONValue(parsing: push.payload)
        } catch {
            throw DevicePushError.badPayload("is not JSON: \(error)")
        }
        guard let members = payload.objectValue else { throw DevicePushError.badPayload("is not a JSON object") }
        guard case .object? = members["aps"] else { throw DevicePushError.badPayload("has no \"aps\" object") }
        return payload
    }

    /// An update or an end, to one activity.
    private func apply(_ aps: LiveActivityPayload, to target: ActivityRecord, payload: JSONValue,
                       change: inout ActivityChange) throws -> ActivityUpdateOutcome {
        func ignore(_ reason: ActivityIgnoreReason, _ detail: String) throws -> ActivityUpdateOutcome {
            try change.ignore(reason, detail, of: target.id, source: .push, event: aps.event, payload: payload)
        }
        guard try LiveActivities.authorization(store, change.db).activitiesEnabled else {
            return try ignore(.activitiesDisabled, "Live Activities are switched off on the device")
        }
        if let fault = aps.fault { return try ignore(fault.reason, fault.detail) }
        guard let event = aps.event, event == "update" || event == "end" else {
            return try ignore(.eventNotAllowed, """
                a '\(aps.event ?? "")' push cannot go to an activity's update token or a channel; start pushes go to \
                the push-to-start token
                """)
        }
        guard let timestamp = aps.timestamp else { return try ignore(.missingTimestamp, "the aps has no timestamp") }
        guard let type = change.types[target.attributesType] else {
            return try ignore(.unknownAttributesType, """
                the engine does not know the type '\(target.attributesType)' to decode content-state with \
                (register it with WidgetCatalog.registerActivity)
                """)
        }
        var content: ActivityContentValue?
        if let state = aps.contentState {
            do {
                content = ActivityContentValue(state: try ActivityDecoding.state(state, as: type),
                                               staleDate: aps.staleDate, relevanceScore: aps.relevanceScore ?? 0)
            } catch let error as ActivityError {
                guard case .undecodableContentState(let detail) = error else { throw error }
                return try ignore(.undecodableContentState, "content-state does not decode as \(type.name).ContentState: \(detail)")
            }
        }
        if event == "update" {
            guard let content else { return try ignore(.missingContentState, "an update push has no content-state") }
            return try change.update(id: target.id, content: content, alert: aps.alert, timestamp: timestamp,
                                     source: .push, payload: payload)
        }
        let dismissal: ActivityUIDismissalPolicy = aps.dismissalDate.map { .after($0) } ?? .default
        return try change.end(id: target.id, content: content, dismissal: dismissal, timestamp: timestamp,
                              source: .push, payload: payload)
    }

    /// A push-to-start.
    private func startActivity(_ tokenType: String, _ aps: LiveActivityPayload, payload: JSONValue,
                               change: inout ActivityChange, delivery: inout PushDelivery) throws {
        func ignore(_ reason: ActivityIgnoreReason, _ detail: String) throws {
            let outcome = try change.ignore(reason, detail, of: nil, source: .push, event: aps.event, payload: payload)
            delivery.results.append(PushDelivery.Result(activityID: nil, outcome: outcome))
        }
        guard try LiveActivities.authorization(store, change.db).activitiesEnabled else {
            return try ignore(.activitiesDisabled, "Live Activities are switched off on the device")
        }
        if let fault = aps.fault { return try ignore(fault.reason, fault.detail) }
        guard aps.event == "start" else {
            return try ignore(.eventNotAllowed, "a '\(aps.event ?? "")' push cannot go to a push-to-start token")
        }
        guard aps.timestamp != nil else { return try ignore(.missingTimestamp, "the aps has no timestamp") }
        guard aps.attributesType == tokenType else {
            return try ignore(.attributesTypeMismatch, """
                attributes-type is \(aps.attributesType.map { "'\($0)'" } ?? "missing"); the token starts '\(tokenType)'
                """)
        }
        guard let alert = aps.alert else {
            return try ignore(.startWithoutAlert, "a push-to-start needs an alert; without one nothing starts")
        }
        guard let type = change.types[tokenType] else {
            return try ignore(.unknownAttributesType, "the engine does not know the type '\(tokenType)'")
        }
        guard let attributesJSON = aps.attributes else {
            return try ignore(.undecodableAttributes, "a push-to-start has no attributes")
        }
        guard let stateJSON = aps.contentState else {
            return try ignore(.missingContentState, "a push-to-start has no content-state")
        }
        let attributes: JSONValue
        let state: JSONValue
        do {
            attributes = try ActivityDecoding.attributes(attributesJSON, as: type)
        } catch ActivityError.undecodableAttributes(let detail) {
            return try ignore(.undecodableAttributes, "attributes do not decode as \(tokenType): \(detail)")
        }
        do {
            state = try ActivityDecoding.state(stateJSON, as: type)
        } catch ActivityError.undecodableContentState(let detail) {
            return try ignore(.undecodableContentState, "content-state does not decode as \(tokenType).ContentState: \(detail)")
        }
        do {
            let record = try change.start(ActivityChange.Start(
                type: type, attributes: attributes,
                content: ActivityContentValue(state: state, staleDate: aps.staleDate,
                                              relevanceScore: aps.relevanceScore ?? 0),
                push: aps.inputPushToken ? .token : .none, style: .standard, alert: alert, startsAt: nil,
                timestamp: aps.timestamp, source: .push))
            delivery.results.append(PushDelivery.Result(activityID: record.id, outcome: .applied))
        } catch ActivityError.tooManyActivities(let limit) {
            try ignore(.tooManyActivities, "the app already has \(limit) activities pending, active or stale")
        } catch ActivityError.tooLarge(let size, let limit) {
            try ignore(.invalidField, "attributes and content-state are \(size) bytes together; at most \(limit)")
        }
    }
}
