/// The rules ``PushChecker`` checks, each with a stable snake_case code (`Docs/push-checker.md` has the table).
///
/// Codes are what tools and tests match on; messages may change wording, codes do not.
public enum PushFindingCode: String, Sendable, Hashable, CaseIterable {
    // Headers (APNs refuses the push).
    /// `apns-push-type` is missing or not `liveactivity`, `widgets` or `controls`.
    case badPushType = "bad_push_type"
    /// `apns-topic` is missing, or its suffix is not the push type's (`.push-type.liveactivity`, `.push-type.widgets`, `.push-type.controls`).
    case topicMismatch = "topic_mismatch"
    /// `apns-priority` is not 5 or 10.
    case badPriority = "bad_priority"
    /// `apns-expiration` is not a whole number of seconds since 1970.
    case badExpiration = "bad_expiration"
    /// Two header names differ only in case.
    case duplicateHeader = "duplicate_header"
    /// A broadcast (`apns-channel-id`) tries to start an activity: channels only update and end.
    case channelStart = "channel_start"
    /// The payload is larger than APNs takes (4096 bytes).
    case payloadTooLarge = "payload_too_large"

    // Payload shape.
    /// The payload is not strict JSON (RFC 8259: no trailing commas, no duplicate members, UTF-8).
    case invalidJSON = "invalid_json"
    /// The payload is not an object with an `aps` object.
    case missingAps = "missing_aps"
    /// `event` is missing or not `start`, `update` or `end`.
    case unknownEvent = "unknown_event"
    /// `aps` has a member the device does not read (often a misspelling: `stale_date`, `contentState`).
    case unknownApsKey = "unknown_aps_key"

    // Times.
    /// `timestamp` is missing: the device drops the push.
    case missingTimestamp = "missing_timestamp"
    /// A date member is not a number of seconds since 1970 between 1970 and 9999.
    case invalidDate = "invalid_date"
    /// A date member looks like milliseconds since 1970 (more than 10^11).
    case dateInMilliseconds = "date_in_milliseconds"
    /// `timestamp` is not later than the last timestamp the activity applied: the device drops the push.
    case timestampNotLater = "timestamp_not_later"
    /// `timestamp` is more than five minutes after now: every push with a true time after it is dropped.
    case timestampInFuture = "timestamp_in_future"
    /// `stale-date` is before `timestamp`: the content is stale the moment it arrives.
    case staleDateBeforeTimestamp = "stale_date_before_timestamp"
    /// `dismissal-date` on a push that is not an `end`: the device ignores it.
    case dismissalDateNotEnd = "dismissal_date_not_end"
    /// An `update` without `stale-date`: if the server stops, the Lock Screen shows old content as current.
    case updateWithoutStaleDate = "update_without_stale_date"
    /// An `end` without `dismissal-date`: the ended activity stays up to four hours.
    case endWithoutDismissalDate = "end_without_dismissal_date"

    // Content.
    /// `relevance-score` is not a finite number.
    case invalidRelevanceScore = "invalid_relevance_score"
    /// A `start` or `update` without `content-state`.
    case missingContentState = "missing_content_state"
    /// `content-state` does not decode as the type's `ContentState` with `JSONDecoder`'s default strategies.
    case undecodableContentState = "undecodable_content_state"
    /// No attributes type was given to check `content-state` against.
    case contentStateUnchecked = "content_state_unchecked"
    /// `attributes-type` names no registered type.
    case unknownAttributesType = "unknown_attributes_type"
    /// A `start` without `attributes-type`.
    case startWithoutAttributesType = "start_without_attributes_type"
    /// A `start` without `attributes`.
    case startWithoutAttributes = "start_without_attributes"
    /// `attributes` does not decode as the attributes type.
    case undecodableAttributes = "undecodable_attributes"
    /// A `start` without `alert`: nothing starts.
    case startWithoutAlert = "start_without_alert"
    /// `alert` is not `{title, body, sound}` with texts as strings or `{loc-key, loc-args}`.
    case invalidAlert = "invalid_alert"
    /// `input-push-token` is not 1 (or 0).
    case invalidInputPushToken = "invalid_input_push_token"
    /// Priority 10 (the default when `apns-priority` is absent) without an alert: it spends the high-priority
    /// budget on an update nobody is alerted to.
    case highPriorityWithoutAlert = "high_priority_without_alert"

    // Widgets.
    /// A `widgets` push whose payload is not exactly `{"aps":{"content-changed":true}}`.
    case widgetPayload = "widget_payload"
    /// A `widgets` push with `apns-priority` 10: the system decides when widgets reload.
    case widgetPriority = "widget_priority"

    // Controls.
    /// A `controls` push whose payload is not exactly `{"aps":{"content-changed":true}}`.
    case controlPayload = "control_payload"
    /// A `controls` push with `apns-priority` 10: the system decides when controls read their values again.
    case controlPriority = "control_priority"

    /// Whether breaking the rule makes the push fail or only work badly.
    public var severity: PushFinding.Severity {
        switch self {
        case .unknownApsKey, .timestampInFuture, .updateWithoutStaleDate, .endWithoutDismissalDate,
             .contentStateUnchecked, .highPriorityWithoutAlert, .widgetPriority, .controlPriority:
            .warning
        default:
            .error
        }
    }
}
