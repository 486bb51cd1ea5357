import JSON
import Push

/// The update planner's endpoints and bodies: state changes in, decisions, the outbox, policies.
extension OpenAPIDocument {
    static let attributesTypePathParameter = pathParameter("attributesType", string(), "An attributes type's name.")
    static let limitParameter = queryParameter("limit", integer(in: 1...PushPlannerResource.maximumLimit),
                                               "At most this many (default and maximum 1000).")
    static let decisionKinds = PlannerDecision.Kind.allCases.map(\.rawValue)

    static let plannerPaths: [String: JSONValue] = [
        "/v1/activities/{id}/states": ["post": operation(
            "submitActivityState", """
                Submit a new content state as it happens; the planner decides what goes out and when (sent, coalesced, \
                deferred_by_interval, deferred_by_budget, skipped_insignificant, ended_by_completion, \
                ended_by_time_limit, no_token, after_end). `attributesType` defaults to the engine's activity's, \
                `frequentPushes` to the engine's switch.
                """,
            parameters: [activityParameter], body: "SubmitStateRequest",
            success: ("200", json("PlannerDecision", "The decision, recorded; its push is in the outbox.")),
            errors: [404, 409, 422, 503])],
        "/v1/push/decisions": ["get": operation(
            "listPlannerDecisions", "The planner's decisions, oldest first (the latest `limit`).",
            parameters: [
                queryParameter("activity", nonEmptyText, "Only this activity's."),
                listParameter("kind", string(values: decisionKinds), "Only these kinds."),
                limitParameter,
            ],
            success: ("200", json("PlannerDecisionList", "The decisions.")), errors: [400, 503])],
        "/v1/push/outbox": [
            "get": operation(
                "listOutbox", "Planned pushes: pending first (oldest due first), then the others, newest first.",
                parameters: [
                    queryParameter("status", string(values: OutboxPush.Status.allCases.map(\.rawValue)), "Only these."),
                    queryParameter("activity", nonEmptyText, "Only this activity's."),
                    limitParameter,
                ],
                success: ("200", json("OutboxList", "The pushes and the counts per status.")), errors: [400, 503]),
            "post": operation(
                "sendPush", """
                    Queue a push of your own for the APNs sender (`widgethost serve --apns-…`): acknowledged once \
                    queued, then sent at least once with its `apns-id`; its fate is at /v1/push/outbox/{apnsId}.
                    """,
                body: "SendPushRequest",
                success: ("202", json("OutboxPush", "Queued.")), errors: [400, 409, 422, 503]),
        ],
        "/v1/push/outbox/{apnsId}": ["get": operation(
            "getOutboxPush", """
                One push's fate: pending (with the next attempt's time after a retryable answer), delivered, or \
                failed with APNs's reason.
                """,
            parameters: [pathParameter("apnsId", string(), "The push's apns-id (a UUID).")],
            success: ("200", json("OutboxPush", "The push.")), errors: [404, 503])],
        "/v1/push/outbox/deliver": ["post": operation(
            "deliverOutbox", """
                Apply the pending pushes due now to the engine's own device, marking each delivered with the device's \
                answer (applied, or ignored with the reason) or failed with what APNs would answer.
                """,
            success: ("200", json("OutboxDeliveryList", "What each push did.")), errors: [503])],
        "/v1/push/policies/{attributesType}": [
            "get": operation(
                "getPlannerPolicy", "The planner policy in force for the attributes type (the defaults until one is set).",
                parameters: [attributesTypePathParameter],
                success: ("200", json("PlannerPolicyDocument", "The policy.")), errors: [503]),
            "put": operation(
                "setPlannerPolicy", "Set the attributes type's planner policy; absent members take their defaults.",
                parameters: [attributesTypePathParameter], body: "PlannerPolicy",
                success: ("200", json("PlannerPolicyDocument", "The policy, as stored.")), errors: [422, 503]),
        ],
    ]

    static let memberRule = object(["pointer": string(), "values": array(of: anyValue)],
                                   required: ["pointer", "values"], closed: true)
    static let plannerDuration: JSONValue = ["type": "number", "minimum": 0, "maximum": 86400]
    static let plannerBudget = integer(in: 0...10_000)

    static let plannerSchemas: [String: JSONValue] = [
        "SubmitStateRequest": object([
            "attributesType": nullable(string()), "state": anyObject, "frequentPushes": nullable(boolean),
        ], required: ["state"], closed: true),
        "PlannerDecision": object([
            "id": integer, "activityId": string(), "at": dateTime, "kind": string(values: decisionKinds),
            "reason": string(), "state": nullable(anyValue), "apnsId": nullable(string(format: "uuid")),
            "priority": nullable(integer), "dueAt": nullable(dateTime),
        ], required: ["id", "activityId", "at", "kind", "reason"]),
        "PlannerDecisionList": object(["decisions": array(of: ref("PlannerDecision"))], required: ["decisions"]),
        "OutboxPush": object([
            "apnsId": string(format: "uuid"), "activityId": text(length: 1...256),
            "event": string(values: ["start", "update", "end"]),
            "deviceToken": nullable(hexToken), "channelId": nullable(string()), "headers": stringMap, "payload": anyObject,
            "priority": oneOfIntegers([5, 10]), "createdAt": dateTime, "dueAt": dateTime,
            "status": string(values: OutboxPush.Status.allCases.map(\.rawValue)), "attempts": integer,
            "lastResult": nullable(string()), "pushType": string(values: ["liveactivity", "widgets"]),
            "collapseId": nullable(string()), "apnsStatus": nullable(integer), "nextAttemptAt": nullable(dateTime),
            "finishedAt": nullable(dateTime),
        ], required: ["apnsId", "event", "headers", "payload", "priority", "createdAt", "dueAt", "status",
                      "attempts", "pushType"]),
        "SendPushRequest": object([
            "deviceToken": hexToken, "pushType": nullable(string(values: ["liveactivity", "widgets"])),
            "payload": anyObject, "priority": nullable(oneOfIntegers([5, 10])),
            "expiration": nullable(integer(in: 0...253_402_300_799)), "collapseId": nullable(text(length: 1...64)),
            "apnsId": nullable(string(format: "uuid")), "activityId": nullable(text(length: 1...256)),
        ], required: ["deviceToken", "payload"], closed: true),
        "OutboxList": object([
            "pushes": array(of: ref("OutboxPush")), "pending": integer, "delivered": integer, "failed": integer,
        ], required: ["pushes", "pending", "delivered", "failed"]),
        "OutboxDeliveryList": object([
            "deliveries": array(of: object(["push": ref("OutboxPush"), "applied": boolean, "result": string()],
                                           required: ["push", "applied", "result"])),
        ], required: ["deliveries"]),
        // Every member may be absent or null: either way it takes its default.
        "PlannerPolicy": object([
            "minimumInterval": nullable(plannerDuration), "expectedInterval": nullable(plannerDuration),
            "staleInterval": nullable(plannerDuration),
            "significance": nullable(array(of: object([
                "pointer": string(), "threshold": nullable(["type": "number", "minimum": 0]), "relative": nullable(boolean),
            ], required: ["pointer"], closed: true))),
            "alert": nullable(array(of: memberRule)), "completion": nullable(array(of: memberRule)),
            "highPriorityPerHour": nullable(plannerBudget), "frequentHighPriorityPerHour": nullable(plannerBudget),
            "endAfter": nullable(plannerDuration), "dismissalDelay": nullable(plannerDuration),
            "alertTitle": nullable(text(length: 1...256)), "alertBody": nullable(text(length: 1...1024)),
        ], required: [], closed: true),
        "PlannerPolicyDocument": object([
            "attributesType": string(), "policy": ref("PlannerPolicy"), "effectiveStaleInterval": number,
        ], required: ["attributesType", "policy", "effectiveStaleInterval"]),
    ]

    /// An integer among `values`.
    static func oneOfIntegers(_ values: [Int]) -> JSONValue {
        ["type": "integer", "enum": .array(values.map(JSONValue.int))]
    }
}
