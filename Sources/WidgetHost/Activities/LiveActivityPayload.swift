import Foundation
import JSON

/// The `aps` of a Live Activity push, read as the device reads it.
///
/// A field of the wrong type is not an error APNs reports: the device cannot use the push and drops it. So reading
/// never throws for the fields the device interprets; the first field it cannot read becomes ``fault``.
struct LiveActivityPayload {
    var event: String?
    var timestamp: Date?
    var contentState: JSONValue?
    var staleDate: Date?
    var dismissalDate: Date?
    var relevanceScore: Double?
    var alert: ActivityAlert?
    var attributesType: String?
    var attributes: JSONValue?
    var inputPushToken = false
    /// The first field the device could not read, with why.
    var fault: (reason: ActivityIgnoreReason, detail: String)?

    /// Reads `payload["aps"]`, which the caller checked is an object.
    init(aps payload: JSONValue) throws {
        let aps = payload.objectValue?["aps"]?.objectValue ?? [:]
        func fail(_ reason: ActivityIgnoreReason, _ detail: String) {
            if fault == nil { fault = (reason, detail) }
        }
        func date(_ key: String) -> Date? {
            guard let value = aps[key] else { return nil }
            guard let seconds = value.numberValue, seconds.isFinite, seconds >= 0, seconds < 253_402_300_800 else {
                fail(.invalidField, "\(key) is \(value.typeName) \(value.canonicalText); it must be seconds since 1970")
                return nil
            }
            return Date(timeIntervalSince1970: seconds)
        }
        switch aps["event"] {
        case .string(let text)?:
            event = text
            if !["start", "update", "end"].contains(text) {
                fail(.unknownEvent, "event is '\(text)'; it must be start, update or end")
            }
        case nil: fail(.unknownEvent, "the aps has no event")
        case let other?: fail(.unknownEvent, "event is \(other.typeName); it must be the string start, update or end")
        }
        timestamp = date("timestamp")
        staleDate = date("stale-date")
        dismissalDate = date("dismissal-date")
        if let score = aps["relevance-score"] {
            if let value = score.numberValue, value.isFinite {
                relevanceScore = value
            } else {
                fail(.invalidField, "relevance-score is \(score.typeName); it must be a number")
            }
        }
        contentState = aps["content-state"]
        if let alert = aps["alert"] { self.alert = Self.alert(alert, fail: fail) }
        switch aps["attributes-type"] {
        case .string(let name)?: attributesType = name
        case nil: break
        case let other?: fail(.attributesTypeMismatch, "attributes-type is \(other.typeName); it must be a string")
        }
        attributes = aps["attributes"]
        switch aps["input-push-token"] {
        case .int(1)?, .bool(true)?: inputPushToken = true
        case nil, .int(0)?, .bool(false)?: break
        case let other?: fail(.invalidField, "input-push-token is \(other.canonicalText); it must be 1")
        }
    }

    /// `{"title": …, "body": …, "sound": …}`, where a text is a string or `{"loc-key": …, "loc-args": […]}`.
    private static func alert(_ value: JSONValue, fail: (ActivityIgnoreReason, String) -> Void) -> ActivityAlert? {
        guard let members = value.objectValue else {
            fail(.invalidField, "alert is \(value.typeName); a Live Activity alert is an object with title and body")
            return nil
        }
        func text(_ key: String) -> String? {
            switch members[key] {
            case .string(let text)?: return text
            case .object(let localized)?:
                guard let key = localized["loc-key"]?.stringValue else { break }
                var arguments: [String] = []
                if case .array(let items)? = localized["loc-args"] { arguments = items.compactMap(\.stringValue) }
                return arguments.isEmpty ? key : key + " " + arguments.joined(separator: " ")
            case nil: return ""
            default: break
            }
            fail(.invalidField, "alert.\(key) must be a string or an object with loc-key")
            return nil
        }
        guard let title = text("title"), let body = text("body") else { return nil }
        var sound: String?
        switch members["sound"] {
        case .string(let name)?: sound = name == "default" ? nil : name
        case nil: break
        default:
            fail(.invalidField, "alert.sound must be a string")
            return nil
        }
        return ActivityAlert(title: title, body: body, sound: sound)
    }
}
