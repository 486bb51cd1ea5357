import JSON
import WidgetHost

/// The Smart Stack endpoints and bodies of the document.
extension OpenAPIDocument {
    /// The `{id}` path parameter of stacks.
    static let stackParameter = pathParameter("id", string(pattern: InstancesResource.idPattern), "A stack id.")

    /// Links from a created stack to the operations on it, for clients and stateful testers.
    static let stackLinks: [String: JSONValue] = [
        "GetStack": ["operationId": "getStack", "parameters": ["id": "$response.body#/id"]],
        "ReplaceStack": ["operationId": "replaceStack", "parameters": ["id": "$response.body#/id"]],
        "DeleteStack": ["operationId": "deleteStack", "parameters": ["id": "$response.body#/id"]],
        "RankStack": ["operationId": "rankStack", "parameters": ["id": "$response.body#/id"]],
    ]

    /// A list of instance ids, each at most once.
    static let stackMembers: JSONValue = [
        "type": "array", "items": string(), "uniqueItems": true, "maxItems": .int(StacksResource.maximumSize),
    ]

    static let stackPaths: [String: JSONValue] = [
        "/v1/stacks": [
            "get": operation("listStacks", "Every Smart Stack, by id.",
                             success: ("200", json("StackList", "The stacks."))),
            "post": operation(
                "createStack", "Create a Smart Stack of placed instances, in the user's order.",
                body: "CreateStackRequest", success: ("201", json("Stack", "The stack.")),
                errors: [409, 422], links: stackLinks),
        ],
        "/v1/stacks/{id}": [
            "get": operation("getStack", "One Smart Stack.", parameters: [stackParameter],
                             success: ("200", json("Stack", "The stack.")), errors: [404]),
            "put": operation(
                "replaceStack", "Replace a stack's instances (the top stays when it is still in the stack).",
                parameters: [stackParameter], body: "ReplaceStackRequest",
                success: ("200", json("Stack", "The stack afterwards.")), errors: [404, 422]),
            "delete": operation("deleteStack", "Delete a stack (its instances stay placed).",
                                parameters: [stackParameter], success: ("204", ["description": "Deleted."]),
                                errors: [404]),
        ],
        "/v1/stacks/{id}/ranking": ["get": operation(
            "rankStack", """
                Which instance is on top at `at` (default now), why, and each instance's score with its parts. The \
                top is recorded, as when the device shows the stack: rotation is rate-limited (15 minutes on top at \
                least) with hysteresis (a challenger must lead by 0.15). An `at` before the recorded state is \
                answered without changing it.
                """,
            parameters: [stackParameter, atParameter],
            success: ("200", json("StackRanking", "The ranking.")), errors: [400, 404, 422])],
    ]

    static let stackSchemas: [String: JSONValue] = [
        "CreateStackRequest": object([
            "id": string(pattern: InstancesResource.idPattern), "instances": nullable(stackMembers),
        ], required: ["id"], closed: true),
        "ReplaceStackRequest": object(["instances": stackMembers], required: ["instances"], closed: true),
        "StackList": object(["stacks": array(of: ref("Stack"))], required: ["stacks"]),
        "Stack": object(["id": string(), "instances": array(of: string()), "createdAt": dateTime],
                        required: ["id", "instances", "createdAt"]),
        "StackRanking": object([
            "stack": string(), "evaluatedAt": dateTime, "top": string(), "topSince": dateTime,
            "decision": ref("RotationDecision"), "instances": array(of: ref("RankedInstance")),
            "policy": ref("RankingPolicy"),
        ], required: ["stack", "evaluatedAt", "decision", "instances", "policy"]),
        "RotationDecision": object([
            "outcome": string(values: ["initial", "kept-leader", "kept-minimum-dwell", "kept-within-margin", "rotated",
                                       "historical", "empty"]),
            "challenger": string(), "until": dateTime, "lead": number, "from": string(),
        ], required: ["outcome"]),
        "RankedInstance": object([
            "instance": string(), "kind": string(), "family": string(), "position": integer, "total": number,
            "eligible": boolean, "parts": ref("ScoreParts"),
        ], required: ["instance", "kind", "family", "position", "total", "eligible", "parts"]),
        "ScoreParts": object([
            "entryState": string(values: ["none", "active", "expired", "carriedOver"]), "entryScore": number,
            "entrySetAt": dateTime, "entryValidUntil": dateTime, "entryScale": number, "entryNormalised": number,
            "donation": number, "donationCount": integer, "context": number, "taps": number, "tapCount": integer,
        ], required: ["entryState", "entryNormalised", "donation", "donationCount", "context", "taps", "tapCount"]),
        "RankingPolicy": object([
            "entryWeight": number, "donationWeight": number, "contextWeight": number, "tapWeight": number,
            "tapHalfLifeSeconds": number, "donationHalfLifeSeconds": number, "minimumDwellSeconds": number,
            "hysteresisMargin": number,
        ], required: ["entryWeight", "donationWeight", "contextWeight", "tapWeight", "tapHalfLifeSeconds",
                      "donationHalfLifeSeconds", "minimumDwellSeconds", "hysteresisMargin"]),
    ]
}
