import JSON
import Push

/// The server side of pushes in the document: the token registry and the checker.
extension OpenAPIDocument {
    /// A token in a request: hex, either case.
    static let anyCaseHexToken = string(pattern: "^([0-9a-fA-F]{2}){1,200}$")
    /// Text of at least one character (a query's filter; what the store takes is judged by the handler).
    static let nonEmptyText: JSONValue = ["type": "string", "minLength": 1]
    /// A device, attributes type or activity id in a path: what the registry takes.
    static let registryIdentifier = string(pattern: "^[^\\u0000-\\u001f\\u007f]{1,256}$")

    /// `PUT` (register) and `GET` (the slot) on one token slot's path.
    static func slotOperations(_ name: String, _ what: String, _ parameters: [JSONValue]) -> JSONValue {
        [
            "put": operation(
                "register\(name)Token", "Register \(what) (idempotent; a new token rotates the slot, the old one stays "
                    + "in its history).",
                parameters: parameters, body: "TokenRegistrationRequest",
                success: ("200", json("TokenRegistrationResult", "What the registration did.")), errors: [409, 422, 503]),
            "get": operation(
                "get\(name)TokenSlot", "The slot of \(what): its current token and every token it had.",
                parameters: parameters, success: ("200", json("TokenSlot", "The slot.")), errors: [422, 503]),
        ]
    }

    static let pushPaths: [String: JSONValue] = [
        "/v1/push/tokens/push-to-start/{device}/{attributesType}": slotOperations(
            "PushToStart", "a device's push-to-start token for an attributes type",
            [pathParameter("device", registryIdentifier, "The device (the host's own id for it)."),
             pathParameter("attributesType", registryIdentifier, "The attributes type's name.")]),
        "/v1/push/tokens/activities/{activityId}": slotOperations(
            "Activity", "an activity's update token",
            [pathParameter("activityId", registryIdentifier, "The activity's id.")]),
        "/v1/push/tokens/widgets/{device}": slotOperations(
            "Widget", "a device's widget push token",
            [pathParameter("device", registryIdentifier, "The device (the host's own id for it).")]),
        "/v1/push/tokens": ["get": operation(
            "listDeviceTokens", "A device's current tokens.",
            parameters: [["name": "device", "in": "query", "required": true, "schema": registryIdentifier,
                          "description": "The device."]],
            success: ("200", json("PushTokenList", "The tokens.")), errors: [400, 422, 503])],
        "/v1/push/registrations/{token}": ["get": operation(
            "getTokenRegistration", "The registration of a token, current or from a slot's history.",
            parameters: [pathParameter("token", anyCaseHexToken, "The token, hex.")],
            success: ("200", json("PushToken", "The token.")), errors: [404, 503])],
        "/v1/push/registrations/{token}/invalidate": ["post": operation(
            "invalidateToken", "Mark a token invalid (APNs answered Unregistered, say): it is never used again.",
            parameters: [pathParameter("token", anyCaseHexToken, "The token, hex.")], body: "TokenInvalidationRequest",
            success: ("200", json("PushToken", "The token.")), errors: [404, 503])],
        "/v1/push/channels": ["get": operation(
            "listChannels", "The broadcast channels, oldest first (open ones unless `closed=true`).",
            parameters: [queryParameter("closed", string(values: ["true", "false"]), "Include closed channels.")],
            success: ("200", json("ChannelList", "The channels.")), errors: [400, 503])],
        "/v1/push/channels/{channelId}": [
            "put": registerChannelOperation,
            "get": operation("getChannel", "A channel, open or closed.", parameters: [channelParameter],
                             success: ("200", json("Channel", "The channel.")), errors: [404, 503]),
        ],
        "/v1/push/channels/{channelId}/close": ["post": operation(
            "closeChannel", "Close a channel: its id is not used again.", parameters: [channelParameter],
            body: "ChannelCloseRequest", success: ("200", json("Channel", "The channel.")), errors: [404, 503])],
        "/v1/push/check": ["post": operation(
            "checkPush", "Every rule a push breaks (Docs/push-checker.md), content decoded as the device decodes it.",
            body: "PushCheckRequest", success: ("200", json("PushCheckResult", "The findings.")), errors: [422])],
    ]

    /// `POST /v1/push/check`'s body: exactly one of `payload` (an object) and `payloadText`.
    static let pushCheckRequest: JSONValue = {
        guard case .object(var members) = object([
            "headers": stringMap, "payload": anyObject, "payloadText": string(),
            "attributesType": nullable(string()), "lastTimestamp": nullable(activityDate),
        ], required: ["headers"], closed: true) else { preconditionFailure("object(_:) builds an object") }
        members["oneOf"] = [["required": ["payload"]], ["required": ["payloadText"]]]
        return .object(members)
    }()

    static let channelParameter = pathParameter("channelId", registryIdentifier, "The channel's id.")

    /// `PUT /v1/push/channels/{channelId}`: 201 when the channel is new, 200 when it was registered already.
    static let registerChannelOperation: JSONValue = {
        let registered = operation(
            "registerChannel", "Register a broadcast channel (201 when new, 200 when registered already).",
            parameters: [channelParameter], body: "ChannelRegistrationRequest",
            success: ("200", json("Channel", "The channel, registered already.")), errors: [409, 422, 503])
        guard case .object(var members) = registered, case .object(var responses)? = members["responses"] else {
            preconditionFailure("operation(_:) builds an object with responses")
        }
        responses["201"] = json("Channel", "The channel, new.")
        members["responses"] = .object(responses)
        return .object(members)
    }()

    static let pushSchemas: [String: JSONValue] = [
        "ChannelRegistrationRequest": object(["attributesType": registryIdentifier], required: ["attributesType"],
                                             closed: true),
        "ChannelCloseRequest": object(["reason": string()], required: ["reason"], closed: true),
        "Channel": object([
            "id": string(), "attributesType": string(), "registeredAt": dateTime, "closedAt": dateTime,
            "closeReason": string(), "open": boolean,
        ], required: ["id", "attributesType", "registeredAt", "open"]),
        "ChannelList": object(["channels": array(of: ref("Channel"))], required: ["channels"]),
        "TokenRegistrationRequest": object([
            "token": anyCaseHexToken, "device": nullable(registryIdentifier),
            "attributesType": nullable(registryIdentifier), "kinds": nullable(array(of: registryIdentifier)),
        ], required: ["token"], closed: true),
        "TokenInvalidationRequest": object(["reason": string()], required: ["reason"], closed: true),
        "TokenRegistrationResult": object([
            "registration": string(values: ["created", "rotated", "unchanged"]), "previous": hexToken,
            "token": ref("PushToken"),
        ], required: ["registration", "token"]),
        "TokenSlot": object(["current": ref("PushToken"), "history": array(of: ref("PushToken"))],
                            required: ["history"]),
        "PushTokenList": object(["tokens": array(of: ref("PushToken"))], required: ["tokens"]),
        "PushToken": object([
            "token": hexToken, "kind": string(values: ["push_to_start", "activity", "widgets"]), "device": string(),
            "attributesType": string(), "activityId": string(), "widgetKinds": array(of: string()),
            "registeredAt": dateTime, "replacedAt": dateTime, "invalidatedAt": dateTime, "invalidReason": string(),
            "usable": boolean,
        ], required: ["token", "kind", "registeredAt", "usable"]),
        "PushCheckRequest": pushCheckRequest,
        "PushCheckResult": object([
            "ok": boolean, "errors": integer, "warnings": integer,
            "findings": array(of: object([
                "severity": string(values: ["error", "warning"]),
                "code": string(values: PushFindingCode.allCases.map(\.rawValue)),
                "pointer": string(), "header": string(), "message": string(),
            ], required: ["severity", "code", "message"])),
        ], required: ["ok", "errors", "warnings", "findings"]),
    ]
}
