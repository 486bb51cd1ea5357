import ActivityKit
import JSON
import WidgetHost

/// The Live Activity endpoints and bodies of the document.
extension OpenAPIDocument {
    /// The `{id}` path parameter of activities.
    static let activityParameter = pathParameter("id", string(), "An activity id.")
    /// The `{name}` path parameter of attributes types.
    static let activityTypeParameter = pathParameter("name", string(), "An activity attributes type's name.")

    /// Links from a started activity to the operations on it, for clients and stateful testers.
    static let activityLinks: [String: JSONValue] = [
        "GetActivity": ["operationId": "getActivity", "parameters": ["id": "$response.body#/id"]],
        "UpdateActivity": ["operationId": "updateActivity", "parameters": ["id": "$response.body#/id"]],
        "EndActivity": ["operationId": "endActivity", "parameters": ["id": "$response.body#/id"]],
        "GetActivityScreen": ["operationId": "getActivityScreen", "parameters": ["id": "$response.body#/id"]],
        "ListActivityTokens": ["operationId": "listActivityTokens", "parameters": ["id": "$response.body#/id"]],
        "RotateActivityToken": ["operationId": "rotateActivityToken", "parameters": ["id": "$response.body#/id"]],
        "GetActivityChart": ["operationId": "getActivityChart", "parameters": ["id": "$response.body#/id"]],
    ]

    /// A date-time in a request body, as the server reads it.
    static let activityDate = string(format: "date-time", pattern: dateTimePattern)
    /// A token as the wire carries it: lower-case hex.
    static let hexToken = string(pattern: "^([0-9a-f]{2})+$")
    static let activityStates = ActivityState.allCases.map(\.rawValue)
    static let activitySources = ActivityEventSource.allCases.map(\.rawValue)
    static let ignoreReasons = ActivityIgnoreReason.allCases.map(\.rawValue)

    static let activityPaths: [String: JSONValue] = [
        "/v1/activities": [
            "get": operation(
                "listActivities", "Activities, newest first; `type` and `state` filter (each repeatable or a comma list).",
                parameters: [
                    listParameter("type", string(pattern: "^[^,]+$"), "Only activities of these attributes types."),
                    listParameter("state", string(values: activityStates), "Only activities in these states."),
                ],
                success: ("200", json("ActivityList", "The activities.")), errors: [400, 422]),
            "post": operation(
                "startActivity", """
                    Start an activity as the app's `Activity.request` would: attributes and content decoded as the \
                    registered type decodes them (a mismatch is 422 with the decoder's path).
                    """,
                body: "StartActivityRequest", success: ("201", json("Activity", "The activity.")),
                errors: [409, 422], links: activityLinks),
        ],
        "/v1/activities/authorization": [
            "get": operation("getActivityAuthorization", "The user's Live Activity switches.",
                             success: ("200", json("ActivityAuthorization", "The switches."))),
            "put": operation("setActivityAuthorization", "Flip the user's switches (the app's streams see it).",
                             body: "ActivityAuthorization", success: ("200", json("ActivityAuthorization", "The switches."))),
        ],
        "/v1/activities/{id}": ["get": operation(
            "getActivity", "An activity as it is now, with its history (ignored updates with their reasons).",
            parameters: [activityParameter], success: ("200", json("Activity", "The activity.")), errors: [404])],
        "/v1/activities/{id}/update": ["post": operation(
            "updateActivity", "Show new content as the app's `Activity.update` would; `ignored` with the reason when the device would not.",
            parameters: [activityParameter], body: "UpdateActivityRequest",
            success: ("200", json("ActivityChangeResult", "The activity and the outcome.")), errors: [404, 422])],
        "/v1/activities/{id}/end": ["post": operation(
            "endActivity", "End it as the app's `Activity.end` would, with a dismissal policy.",
            parameters: [activityParameter], body: "EndActivityRequest",
            success: ("200", json("ActivityChangeResult", "The activity and the outcome.")), errors: [404, 422])],
        "/v1/activities/{id}/screen": ["get": operation(
            "getActivityScreen", "What the Lock Screen showed at `at` (default now; a later moment is 422 `future_time`).",
            parameters: [activityParameter, atParameter],
            success: ("200", json("ActivityScreen", "The screen.")), errors: [400, 404, 422])],
        "/v1/activities/{id}/chart.svg": ["get": operation(
            "getActivityChart", "An SVG of the activity's life up to `until` (default now): its states over time, "
                + "stale spans, each update, alert and new token, and every ignored update with its reason.",
            parameters: [activityParameter, queryParameter("until", string(format: "date-time"),
                                                           "The chart's right edge (RFC 3339; default now).")],
            success: ("200", ["description": "The chart.", "content": ["image/svg+xml": ["schema": string()]]]),
            errors: [400, 404, 422])],
        "/v1/activities/{id}/tokens": ["get": operation(
            "listActivityTokens", "Every update token the activity was issued, oldest first.",
            parameters: [activityParameter], success: ("200", json("ActivityTokenList", "The tokens.")), errors: [404])],
        "/v1/activities/{id}/tokens/rotate": ["post": operation(
            "rotateActivityToken", "Replace the activity's update token now; a push to the old one is then ignored (`replaced_token`).",
            parameters: [activityParameter], success: ("200", json("RotatedToken", "The new token.")), errors: [404, 409])],
        "/v1/activity-types": ["get": operation(
            "listActivityTypes", "The registered attributes types, each with its current push-to-start token.",
            success: ("200", json("ActivityTypeList", "The types.")))],
        "/v1/activity-types/{name}/tokens": ["get": operation(
            "listPushToStartTokens", "Every push-to-start token the type was issued, oldest first.",
            parameters: [activityTypeParameter], success: ("200", json("ActivityTokenList", "The tokens.")),
            errors: [404])],
        "/v1/activity-types/{name}/push-to-start-token/rotate": ["post": operation(
            "rotatePushToStartToken", "Replace (or first issue) the type's push-to-start token.",
            parameters: [activityTypeParameter], success: ("200", json("RotatedToken", "The new token.")),
            errors: [404])],
        "/v1/device/push": ["post": devicePushOperation],
        "/v1/device/widget-push-token": ["get": operation(
            "getWidgetPushToken", "The device's widget push token (issued on first request).",
            success: ("200", json("RotatedToken", "The token.")))],
        "/v1/device/pushes/unaddressed": ["get": operation(
            "listUnaddressedPushes", "Pushes that reached no activity (an unknown token or channel), oldest first.",
            success: ("200", json("ActivityEventList", "The pushes.")))],
    ]

    /// `POST /v1/device/push`: the body is an APNs payload, which may carry members of the app's own, so it is open.
    static let devicePushOperation = operation(
        "deliverDevicePush", """
                Deliver a push as APNs would: the body is the APNs payload as sent, the headers APNs's, the device \
                token in `token` (or `apns-channel-id` for a broadcast; exactly one of them). 200 even when the \
                device ignores it (with the reason per activity); 400 `bad_push` / 413 `payload_too_large` with \
                `detail.apns_reason` for what APNs itself refuses (a body over 4096 bytes, neither or both addresses). \
                A widget push (`apns-push-type: widgets`, `{"aps":{"content-changed":true}}` to the token of \
                `/v1/device/widget-push-token`) reloads the device's placed widgets, each charged to its budget; a \
                control push (`apns-push-type: controls`, the same payload and token) makes every placed control \
                read its value again.
                """,
            parameters: [
                queryParameter("token", string(pattern: "^([0-9a-fA-F]{2}){1,200}$"), "The device token, as hex."),
                requiredHeader("apns-push-type", string(values: ["liveactivity", "widgets", "controls"]),
                               "APNs's push type."),
                requiredHeader("apns-topic", string(pattern: "^.+\\.push-type\\.(liveactivity|widgets|controls)$"),
                               "`<bundle id>.push-type.liveactivity` (or `.widgets`, `.controls`)."),
                headerParameter("apns-priority", string(values: ["5", "10"]), "5 or 10 (10 when absent)."),
                headerParameter("apns-channel-id", text(length: 1...256), "The broadcast channel, instead of `token`."),
            ],
            body: "DevicePushPayload", success: ("200", [
                "description": "What the device did with it.",
                "content": ["application/json": ["schema": ["oneOf": [ref("PushDelivery"), ref("WidgetPushResult"), ref("ControlPushResult")]]]],
            ]))

    /// An optional query parameter that may repeat (`?state=a&state=b`).
    static func listParameter(_ name: String, _ item: JSONValue, _ description: String) -> JSONValue {
        ["name": .string(name), "in": "query", "required": false, "style": "form", "explode": true,
         "schema": ["type": "array", "items": item, "minItems": 1], "description": .string(description)]
    }

    /// A required request header.
    static func requiredHeader(_ name: String, _ schema: JSONValue, _ description: String) -> JSONValue {
        ["name": .string(name), "in": "header", "required": true, "schema": schema, "description": .string(description)]
    }

    static let activityContentRequest = object([
        "state": anyObject, "staleDate": nullable(activityDate), "relevanceScore": nullable(number),
    ], required: ["state"], closed: true)

    static let activityAlertRequest = object([
        "title": string(), "body": string(), "sound": nullable(string()),
    ], required: ["title", "body"], closed: true)

    static let activitySchemas: [String: JSONValue] = [
        "StartActivityRequest": object([
            "attributesType": string(), "attributes": anyObject, "content": activityContentRequest,
            "pushType": nullable(string(values: V1.ActivityPushType.allCases.map(\.rawValue))),
            "channelId": nullable(string()),
            "style": nullable(string(values: ActivityStyle.allCases.map(\.rawValue))),
            "alert": nullable(activityAlertRequest), "startDate": nullable(activityDate),
        ], required: ["attributesType", "attributes", "content"], closed: true),
        "UpdateActivityRequest": object([
            "content": activityContentRequest, "alert": nullable(activityAlertRequest),
            "timestamp": nullable(activityDate),
        ], required: ["content"], closed: true),
        "EndActivityRequest": object([
            "content": nullable(activityContentRequest),
            "dismissalPolicy": nullable(["oneOf": [
                object(["kind": string(values: ["default", "immediate"])], required: ["kind"], closed: true),
                object(["kind": string(values: ["after"]), "date": activityDate], required: ["kind", "date"],
                       closed: true),
            ]]),
            "timestamp": nullable(activityDate),
        ], required: [], closed: true),
        "ActivityAuthorization": object(["activitiesEnabled": boolean, "frequentPushesEnabled": boolean],
                                        required: ["activitiesEnabled", "frequentPushesEnabled"], closed: true),
        "DevicePushPayload": object(["aps": anyObject], required: ["aps"]),
        "ActivityList": object(["activities": array(of: ref("Activity"))], required: ["activities"]),
        "ActivityContent": object(["state": anyValue, "staleDate": dateTime, "relevanceScore": number],
                                  required: ["state"]),
        "ActivityAlert": object(["title": string(), "body": string(), "sound": string()], required: ["title", "body"]),
        "Activity": object([
            "id": string(), "attributesType": string(), "attributes": anyValue, "content": ref("ActivityContent"),
            "state": string(values: activityStates),
            "pushType": string(values: V1.ActivityPushType.allCases.map(\.rawValue)), "channelId": string(),
            "pushToken": hexToken, "style": string(values: ActivityStyle.allCases.map(\.rawValue)),
            "startedBy": string(values: activitySources), "requestedAt": dateTime, "startsAt": dateTime,
            "endedAt": dateTime, "dismissesAt": dateTime, "lastUpdateAt": dateTime,
            "history": array(of: ref("ActivityHistoryEvent")),
        ], required: ["id", "attributesType", "attributes", "content", "state", "pushType", "style", "startedBy",
                      "requestedAt", "startsAt", "lastUpdateAt"]),
        "ActivityHistoryEvent": object([
            "sequence": integer, "activityId": string(), "at": dateTime, "source": string(values: activitySources),
            "kind": string(values: ["state", "content", "alert", "token", "ignored"]),
            "state": string(values: activityStates), "content": ref("ActivityContent"), "alert": ref("ActivityAlert"),
            "token": hexToken, "ignored": ref("IgnoredUpdate"),
        ], required: ["sequence", "at", "source", "kind"]),
        "IgnoredUpdate": object([
            "reason": string(values: ignoreReasons), "detail": string(), "event": string(), "payload": anyValue,
        ], required: ["reason", "detail"]),
        "ActivityEventList": object(["events": array(of: ref("ActivityHistoryEvent"))], required: ["events"]),
        "ActivityChangeResult": object([
            "activity": ref("Activity"), "outcome": string(values: ["applied", "ignored"]),
            "reason": string(values: ignoreReasons), "detail": string(),
        ], required: ["activity", "outcome"]),
        "ActivityScreen": object([
            "activityId": string(), "at": dateTime, "state": string(values: activityStates),
            "content": ref("ActivityContent"), "isStale": boolean, "isVisible": boolean,
            "lastAlert": ref("ActivityAlert"), "lastAlertAt": dateTime,
        ], required: ["activityId", "at", "isStale", "isVisible"]),
        "ActivityTokenList": object(["tokens": array(of: ref("ActivityToken"))], required: ["tokens"]),
        "ActivityToken": object([
            "token": hexToken, "activityId": string(), "attributesType": string(), "issuedAt": dateTime,
            "replacedAt": dateTime,
        ], required: ["token", "issuedAt"]),
        "RotatedToken": object(["token": hexToken], required: ["token"]),
        "WidgetPushResult": object([
            "applied": boolean, "reason": string(values: ["unknown_token", "missing_content_changed"]),
            "detail": string(), "reloads": array(of: ref("Reload")),
        ], required: ["applied", "reloads"], closed: true),
        "ActivityTypeList": object(["types": array(of: ref("ActivityType"))], required: ["types"]),
        "ActivityType": object(["name": string(), "pushToStartToken": hexToken, "contentStateSchema": anyObject],
                               required: ["name"]),
        "PushDelivery": object([
            "event": string(), "applied": boolean, "results": array(of: ref("PushResult")),
        ], required: ["applied", "results"]),
        "PushResult": object([
            "activityId": string(), "outcome": string(values: ["applied", "ignored"]),
            "reason": string(values: ignoreReasons), "detail": string(),
        ], required: ["outcome"]),
    ]
}
