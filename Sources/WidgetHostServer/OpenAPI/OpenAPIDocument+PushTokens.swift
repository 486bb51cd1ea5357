import JSON
import Push

/// The push token registry's endpoints and bodies (`PushTokensResource`).
extension OpenAPIDocument {
    static let tokenText = string(pattern: "^([0-9a-fA-F]{2}){1,200}$")
    /// Text of at least one character (longer identifiers are judged by the registry: 422 `invalid_identifier`).
    static let nonEmptyText: JSONValue = ["type": "string", "minLength": 1]

    /// The GET and PUT of one token slot.
    static func tokenSlotPath(_ name: String, _ parameters: [JSONValue], _ what: String) -> JSONValue {
        [
            "get": operation("get\(name)Token", "\(what): its current token and every token it had, oldest first.",
                             parameters: parameters, success: ("200", json("TokenSlot", "The slot."))),
            "put": operation(
                "register\(name)Token", """
                    Register the token the app's stream delivered in \(what.lowercased()): created, rotated (the old one \
                    kept in the history) or unchanged (registering is idempotent). 409 `token_invalidated` / \
                    `token_registered_elsewhere`, 422 `invalid_identifier`.
                    """,
                parameters: parameters, body: "TokenRegistrationRequest",
                success: ("200", json("TokenRegistrationResult", "What the registration did.")), errors: [404, 409, 422]),
        ]
    }

    static let pushTokenPaths: [String: JSONValue] = [
        "/v1/push/tokens/push-to-start/{device}/{attributesType}": tokenSlotPath("PushToStart", [
            pathParameter("device", string(), "The device (the app's own id for it)."), attributesTypePathParameter,
        ], "A device's push-to-start slot for one attributes type"),
        "/v1/push/tokens/activities/{activityId}": tokenSlotPath("Activity", [
            pathParameter("activityId", string(), "The activity."),
        ], "An activity's update-token slot"),
        "/v1/push/tokens/widgets/{device}": tokenSlotPath("Widget", [
            pathParameter("device", string(), "The device."),
        ], "A device's widget-token slot"),
        "/v1/push/tokens": ["get": operation(
            "listDevicePushTokens", "A device's current tokens.",
            parameters: [queryParameter("device", nonEmptyText, "The device.").required],
            success: ("200", json("PushTokenList", "The tokens.")), errors: [400, 422])],
        "/v1/push/registrations/{token}": ["get": operation(
            "getPushTokenRegistration", "One token's registration; 404 `unknown_push_token`.",
            parameters: [pathParameter("token", string(), "The token, hex.")],
            success: ("200", json("PushToken", "The registration.")), errors: [404])],
        "/v1/push/registrations/{token}/invalidate": ["post": operation(
            "invalidatePushToken", "Mark the token invalid (APNs answered Unregistered, say); it is never used again.",
            parameters: [pathParameter("token", string(), "The token, hex.")], body: "TokenInvalidationRequest",
            success: ("200", json("PushToken", "The registration, invalidated.")), errors: [404])],
    ]

    static let pushTokenSchemas: [String: JSONValue] = [
        "TokenRegistrationRequest": object([
            "token": tokenText, "device": nullable(string()), "attributesType": nullable(string()),
            "kinds": nullable(array(of: string())),
        ], required: ["token"], closed: true),
        "TokenInvalidationRequest": object(["reason": string()], required: ["reason"], closed: true),
        "PushToken": object([
            "token": hexToken, "kind": string(values: ["push_to_start", "activity", "widgets"]),
            "device": nullable(string()), "attributesType": nullable(string()), "activityId": nullable(string()),
            "widgetKinds": nullable(array(of: string())), "registeredAt": dateTime, "replacedAt": nullable(dateTime),
            "invalidatedAt": nullable(dateTime), "invalidReason": nullable(string()), "usable": boolean,
        ], required: ["token", "kind", "registeredAt", "usable"]),
        "TokenRegistrationResult": object([
            "registration": string(values: ["created", "rotated", "unchanged"]), "previous": nullable(hexToken),
            "token": ref("PushToken"),
        ], required: ["registration", "token"]),
        "TokenSlot": object(["current": nullable(ref("PushToken")), "history": array(of: ref("PushToken"))],
                            required: ["history"]),
        "PushTokenList": object(["tokens": array(of: ref("PushToken"))], required: ["tokens"]),
    ]
}

extension JSONValue {
    /// A parameter object marked required.
    var required: JSONValue {
        guard case .object(var members) = self else { return self }
        members["required"] = true
        return .object(members)
    }
}
