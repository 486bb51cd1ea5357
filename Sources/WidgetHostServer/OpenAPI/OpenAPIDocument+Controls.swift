import JSON
import WidgetHost

/// The control endpoints and bodies of the document (`/v1/control-kinds`, `/v1/controls`, `/v1/control-reloads`).
extension OpenAPIDocument {
    /// The `{id}` path parameter of controls.
    static let controlParameter = pathParameter("id", string(pattern: InstancesResource.idPattern), "A control id.")

    /// Links from a placed control to the operations on it, for clients and stateful testers.
    static let controlLinks: [String: JSONValue] = [
        "GetControl": ["operationId": "getControl", "parameters": ["id": "$response.body#/id"]],
        "DeleteControl": ["operationId": "deleteControl", "parameters": ["id": "$response.body#/id"]],
        "ToggleControl": ["operationId": "toggleControl", "parameters": ["id": "$response.body#/id"]],
        "PressControl": ["operationId": "pressControl", "parameters": ["id": "$response.body#/id"]],
    ]

    /// The query and header parameters a perform takes, after the control's id.
    static let controlPerformParameters: [JSONValue] = [
        controlParameter,
        queryParameter("dryRun", boolean, "Run, report, roll back (default false)."),
        headerParameter(IntentsResource.idempotencyKeyHeader,
                        string(pattern: "^[!-~]{1,\(IntentsResource.maximumKeyLength)}$"),
                        "A key naming this request, so a retry is answered without performing again."),
    ]

    /// A perform's answer, with the `Idempotent-Replayed` header.
    static let controlOutcomeResponse: JSONValue = [
        "description": "What the perform changed, and the control reloads (or, for a dry run, what it would change).",
        "headers": [IntentsResource.replayedHeader: [
            "description": "Sent with an Idempotency-Key: `true` when the outcome is the stored first one.",
            "required": false, "schema": string(values: ["true", "false"]),
        ]],
        "content": ["application/json": ["schema": ref("ControlOutcome")]],
    ]

    static let controlPaths: [String: JSONValue] = [
        "/v1/control-kinds": ["get": operation(
            "listControlKinds", "The control kinds (toggles and buttons), with a configurable kind's parameters.",
            success: ("200", json("ControlKindList", "Every control kind of the catalog.")))],
        "/v1/controls": [
            "get": operation("listControls", "Every placed control with the value it shows, oldest first.",
                             success: ("200", json("ControlList", "The placed controls."))),
            "post": operation(
                "placeControl", """
                    Place a control; its value is read at once. A configurable kind takes its configuration \
                    intent's parameter values (entity ids, enum raw values, ISO 8601 dates), checked as an intent's \
                    parameters are: 422 `invalid_configuration` names the parameter at fault. 422 \
                    `unknown_control_kind`, 409 `duplicate_control`.
                    """,
                body: "PlaceControlRequest", success: ("201", json("Control", "The placed control.")),
                errors: [409, 422], links: controlLinks),
        ],
        "/v1/controls/{id}": [
            "get": operation("getControl", "One placed control.", parameters: [controlParameter],
                             success: ("200", json("Control", "The control.")), errors: [404]),
            "delete": operation("deleteControl", "Remove a placed control (its logged reloads stay).",
                                parameters: [controlParameter], success: ("204", ["description": "Removed."]),
                                errors: [404]),
        ],
        "/v1/controls/{id}/toggle": ["post": operation(
            "toggleControl", """
                Set a toggle control to `value`: its SetValueIntent runs with `value` (and a configurable control's \
                configured parameters) in one durable transaction, then the control reads its value again, then the \
                controls the intent asked ControlCenter for; those reloads are owed in the same transaction, so they \
                run after a crash too. `dryRun` and `Idempotency-Key` as for `/v1/intents/{name}/perform` (a key is \
                bound to the control, its intent and parameters). 409 `wrong_control_style` for a button.
                """,
            parameters: controlPerformParameters, body: "ToggleControlRequest",
            success: ("200", controlOutcomeResponse), errors: [400, 404, 409, 422, 503])],
        "/v1/controls/{id}/press": ["post": operation(
            "pressControl", """
                Press a button control (no body): its intent runs as a toggle's does, then the control and the \
                controls the intent asked for read their values again. 409 `wrong_control_style` for a toggle.
                """,
            parameters: controlPerformParameters,
            success: ("200", controlOutcomeResponse), errors: [400, 404, 409, 422, 503])],
        "/v1/control-reloads": ["get": operation(
            "listControlReloads", "Every read of a placed control's value (placed, performed, requested, pushed), oldest first.",
            success: ("200", json("ControlReloadList", "The reloads.")))],
        "/v1/device/widget-push-token/renew": ["post": operation(
            "renewWidgetPushToken", """
                Replace the device's widget push token (widget and control pushes): pushes to the old one are \
                ignored from now on, the push token registry's widgets slot rotates, and the app's WidgetPushHandler \
                is handed the new token with the placed widgets.
                """,
            success: ("200", json("RotatedToken", "The new token.")))],
    ]

    static let controlSchemas: [String: JSONValue] = [
        "ControlKindList": object(["kinds": array(of: ref("ControlKind"))], required: ["kinds"]),
        "ControlKind": object([
            "kind": string(), "style": string(values: ["toggle", "button"]), "intent": string(),
            "configurable": boolean, "configuration": array(of: ref("Parameter")), "previewValue": anyValue,
        ], required: ["kind", "style", "intent", "configurable"]),
        "PlaceControlRequest": object([
            "kind": ["type": "string", "examples": ["com.example.widgethost.focus"]],
            "id": nullable(string(pattern: InstancesResource.idPattern)),
            "configuration": ["anyOf": [anyObject, ["type": "null"]], "examples": [["project": "proj-launch"]]],
        ], required: ["kind"], closed: true),
        "ToggleControlRequest": object(["value": boolean], required: ["value"], closed: true),
        "ControlList": object(["controls": array(of: ref("Control"))], required: ["controls"]),
        "Control": object([
            "id": string(), "kind": string(), "configuration": anyObject, "placedAt": dateTime, "value": anyValue,
            "valueReadAt": dateTime, "lastFailure": string(),
        ], required: ["id", "kind", "configuration", "placedAt"]),
        "ControlReload": object([
            "controlId": string(), "kind": string(),
            "reason": string(values: ["placed", "performed", "kind_reload", "all_reload", "control_push"]),
            "ranAt": dateTime, "value": anyValue, "failure": string(),
        ], required: ["controlId", "kind", "reason", "ranAt"]),
        "ControlReloadList": object(["reloads": array(of: ref("ControlReload"))], required: ["reloads"]),
        "ControlOutcome": object(["control": string(), "value": anyValue, "perform": ref("IntentOutcome")],
                                 required: ["control", "perform"]),
        "ControlPushResult": object([
            "applied": boolean, "reason": string(values: ["unknown_token", "missing_content_changed"]),
            "detail": string(), "controlReloads": array(of: ref("ControlReload")),
        ], required: ["applied", "controlReloads"], closed: true),
    ]
}
