import JSON
import WidgetHost

/// The interactive-intent endpoints and bodies of the document.
extension OpenAPIDocument {
    /// The `{name}` path parameter of intents.
    var intentParameter: JSONValue {
        Self.pathParameter("name", Self.oneOf(intents), "An interactive intent of the served catalog.")
    }

    var intentPaths: [String: JSONValue] {
        [
            "/v1/intents": ["get": D.operation(
                "listIntents", "The interactive intents and their parameters.",
                success: ("200", D.json("IntentList", "Every intent.")))],
            "/v1/intents/{name}": ["get": D.operation(
                "getIntent", "One interactive intent.", parameters: [intentParameter],
                success: ("200", D.json("Intent", "The intent.")), errors: [404])],
            "/v1/intents/{name}/perform": ["post": D.operation(
                "performIntent", """
                    Perform an intent (a tap on a widget's button or toggle) in one durable transaction of the App \
                    Group container, then reload the tapped instance (budget-exempt) and the kinds the intent asked \
                    for (budgeted). With `dryRun=true`, run it and roll back: the answer says what it would change \
                    and reload. With an `Idempotency-Key`, a retry of the same request (intent, parameters as sent, \
                    instance) within 24 hours answers the first outcome with `Idempotent-Replayed: true` and \
                    performs nothing (it runs the first perform's reloads if they are still owed, after a crash or a \
                    failed reload: its `reloads` then list them); the key with another request is 409 \
                    `idempotency_key_reused`. Dry runs neither read nor store keys.
                    """,
                parameters: [
                    intentParameter,
                    D.queryParameter("dryRun", D.boolean, "Run, report, roll back (default false)."),
                    D.headerParameter(IntentsResource.idempotencyKeyHeader,
                                      D.string(pattern: "^[!-~]{1,\(IntentsResource.maximumKeyLength)}$"),
                                      "A key naming this request, so a retry is answered without performing again."),
                ],
                body: "PerformRequest",
                success: ("200", [
                    "description": "What the perform changed and reloaded (or would, for a dry run).",
                    "headers": [IntentsResource.replayedHeader: [
                        "description": "Sent with an Idempotency-Key: `true` when the outcome is the stored first one.",
                        "required": false, "schema": D.string(values: ["true", "false"]),
                    ]],
                    "content": ["application/json": ["schema": D.ref("IntentOutcome")]],
                ]),
                errors: [404, 409, 422, 503])],
        ]
    }

    static let intentSchemas: [String: JSONValue] = [
        "IntentList": D.object(["intents": D.array(of: D.ref("Intent"))], required: ["intents"]),
        "Intent": D.object([
            "name": D.string(), "title": D.string(), "description": D.string(),
            "parameters": D.array(of: D.ref("Parameter")),
        ], required: ["name", "title", "parameters"]),
        "PerformRequest": D.object([
            "parameters": ["anyOf": [D.anyObject, ["type": "null"]], "examples": [["taskId": "task-3"]]],
            "instance": D.nullable(D.string(pattern: InstancesResource.idPattern)),
        ], required: [], closed: true),
        "IntentOutcome": D.object([
            "intent": D.string(), "parameters": D.anyObject, "instance": D.string(), "value": D.anyValue,
            "dialog": D.string(), "dryRun": D.boolean, "performedAt": D.dateTime, "changes": D.ref("Changes"),
            "requestedReloads": D.array(of: D.string()), "plannedReloads": D.array(of: D.ref("PlannedReload")),
            "reloads": D.array(of: D.ref("Reload")), "reloadFailure": D.string(), "idempotency": D.ref("Idempotency"),
            "requestedControlReloads": D.array(of: D.string()), "controlReloads": D.array(of: D.ref("ControlReload")),
        ], required: ["intent", "parameters", "dryRun", "performedAt", "changes", "requestedReloads",
                      "plannedReloads", "reloads", "requestedControlReloads", "controlReloads"]),
        "Changes": D.object(["rows": D.array(of: D.ref("RowChange")), "keys": D.array(of: D.ref("KeyChange"))],
                            required: ["rows", "keys"]),
        "RowChange": D.object([
            "table": D.string(), "operation": D.string(values: ["insert", "update", "delete"]), "rowid": D.integer,
            "old": D.anyObject, "new": D.anyObject,
        ], required: ["table", "operation", "rowid"]),
        "KeyChange": D.object(["suite": D.string(), "key": D.string(), "old": D.anyValue, "new": D.anyValue],
                              required: ["suite", "key", "old", "new"]),
        "PlannedReload": D.object([
            "instanceId": D.string(), "kind": D.string(), "reason": D.string(values: ReloadReason.allCases.map(\.rawValue)),
            "budgetExempt": D.boolean, "deferredByBudget": D.boolean,
        ], required: ["instanceId", "kind", "reason", "budgetExempt", "deferredByBudget"]),
        "Idempotency": D.object([
            "key": D.string(), "replayed": D.boolean, "firstPerformedAt": D.dateTime, "expiresAt": D.dateTime,
        ], required: ["key", "replayed", "firstPerformedAt", "expiresAt"]),
    ]
}
