import ActivityKit
import Foundation
import JSON

extension PushInspection {
    /// The members of a Live Activity `aps` the device reads.
    static let apsKeys: Set<String> = ["event", "timestamp", "content-state", "stale-date", "dismissal-date",
                                       "relevance-score", "alert", "attributes-type", "attributes",
                                       "input-push-token"]

    /// The rules of a Live Activity push's `aps`, in the order the device meets them.
    mutating func checkLiveActivity(_ aps: [String: JSONValue]) {
        for key in aps.keys.sorted() where !Self.apsKeys.contains(key) {
            report(.unknownApsKey, pointer: JSONPointer.appending([key], to: "/aps"), """
                the device does not read "\(key)" in a Live Activity aps; it reads \
                \(Self.apsKeys.sorted().joined(separator: ", "))
                """)
        }
        let event = readEvent(aps["event"])
        checkDates(aps, event: event)
        if let score = aps["relevance-score"], score.numberValue == nil {
            report(.invalidRelevanceScore, pointer: "/aps/relevance-score",
                   "relevance-score is \(score.typeName); it must be a number")
        }
        if let alert = aps["alert"] { checkAlert(alert) }
        switch aps["input-push-token"] {
        case nil, .int(0)?, .int(1)?, .bool?: break
        case let other?:
            report(.invalidInputPushToken, pointer: "/aps/input-push-token",
                   "input-push-token is \(other.canonicalText); send 1 to get an update token")
        }
        if aps["alert"] == nil, event != .start, effectivePriority == 10 {
            report(.highPriorityWithoutAlert, header: "apns-priority", """
                priority 10\(headers["apns-priority"] == nil ? " (APNs' default when apns-priority is absent)" : "") \
                without an alert spends the Live Activity's high-priority budget; send apns-priority 5
                """)
        }
        switch event {
        case .start?: checkStart(aps)
        case .update?:
            guard let state = aps["content-state"] else {
                return report(.missingContentState, pointer: "/aps/content-state",
                              "an update push needs content-state; without it the device drops the push")
            }
            checkContentState(state, candidates: types)
        case .end?:
            if let state = aps["content-state"] { checkContentState(state, candidates: types) }
        case nil: break
        }
    }

    private mutating func readEvent(_ value: JSONValue?) -> LiveActivityEvent? {
        let allowed = "it must be start, update or end"
        switch value {
        case .string(let text)?:
            if let event = LiveActivityEvent(rawValue: text) { return event }
            report(.unknownEvent, pointer: "/aps/event", "event is '\(text)'; \(allowed)")
        case nil: report(.unknownEvent, pointer: "/aps/event", "the aps has no event; \(allowed)")
        case let other?: report(.unknownEvent, pointer: "/aps/event", "event is \(other.typeName); \(allowed)")
        }
        return nil
    }

    /// A push-to-start: no channel, an alert, a known attributes type, attributes and content that decode.
    private mutating func checkStart(_ aps: [String: JSONValue]) {
        if let channel = headers["apns-channel-id"] {
            report(.channelStart, header: "apns-channel-id", """
                a start cannot be broadcast on the channel '\(channel)'; send it to the push-to-start token
                """)
        }
        if aps["alert"] == nil {
            report(.startWithoutAlert, pointer: "/aps/alert", "a start push needs an alert; without one nothing starts")
        }
        var type: ActivityAttributesType?
        switch aps["attributes-type"] {
        case .string(let name)?:
            type = types.first { $0.name == name }
            if type == nil, !types.isEmpty {
                report(.unknownAttributesType, pointer: "/aps/attributes-type", """
                    attributes-type is '\(name)'; the registered types are \
                    \(types.map(\.name).joined(separator: ", ")) (the Swift type's name, as String(describing:))
                    """)
            }
        case nil:
            report(.startWithoutAttributesType, pointer: "/aps/attributes-type",
                   "a start push needs attributes-type, the name of the ActivityAttributes type")
        case let other?:
            report(.startWithoutAttributesType, pointer: "/aps/attributes-type",
                   "attributes-type is \(other.typeName); it must be the type's name as a string")
        }
        if let attributes = aps["attributes"] {
            if let type {
                checkDecodes(attributes, at: "/aps/attributes", as: [type], part: .attributes)
            }
        } else {
            report(.startWithoutAttributes, pointer: "/aps/attributes", "a start push needs attributes")
        }
        guard let state = aps["content-state"] else {
            return report(.missingContentState, pointer: "/aps/content-state", "a start push needs content-state")
        }
        if let type {
            checkContentState(state, candidates: [type])
        } else if types.isEmpty {
            checkContentState(state, candidates: [])
        }
    }

    private mutating func checkContentState(_ state: JSONValue, candidates: [ActivityAttributesType]) {
        guard !candidates.isEmpty else {
            return report(.contentStateUnchecked, pointer: "/aps/content-state", """
                no attributes type was given, so content-state was not decoded; pass the activity's type
                """)
        }
        checkDecodes(state, at: "/aps/content-state", as: candidates, part: .contentState)
    }
}
