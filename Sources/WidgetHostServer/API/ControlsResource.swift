import Foundation
import HTTPServer
import WidgetHost

/// Controls (Control Center, Lock Screen, Action button): their kinds, placed controls with the value they show,
/// and performing one (toggling it to a value, pressing it).
///
/// - `GET /v1/control-kinds` → ``V1/ControlKindList``
/// - `POST /v1/controls` ``V1/PlaceControlBody`` → 201 ``V1/Control`` with `Location`; 422 `unknown_control_kind` /
///   `invalid_configuration`, 409 `duplicate_control`, 400 `invalid_field`
/// - `GET /v1/controls` → ``V1/ControlList``; `GET /v1/controls/{id}` → ``V1/Control``; 404 `unknown_control`
/// - `DELETE /v1/controls/{id}` → 204; 404 `unknown_control`
/// - `POST /v1/controls/{id}/toggle?dryRun=` ``V1/ToggleControlBody`` and `POST /v1/controls/{id}/press?dryRun=`
///   (no body, or `{}`), each with an optional `Idempotency-Key` → ``V1/ControlOutcome``; 404 `unknown_control`,
///   409 `wrong_control_style` / `idempotency_key_reused`, 422 `intent_failed` and the intent runner's other codes
/// - `GET /v1/control-reloads` → ``V1/ControlReloadList``: every read of a control's value, oldest first
///
/// A perform goes through the intent runner as `POST /v1/intents/{name}/perform` does (one transaction, dry run,
/// idempotency with `Idempotent-Replayed`), and its control reloads are owed in the same transaction: the control
/// itself is read again at once, then the controls its intent asked `ControlCenter` for.
enum ControlsResource: APIResource {
    static func register(in router: inout APIRouter, context: APIContext) {
        let engine = context.engine
        let runner = context.intents
        let metrics = context.metrics
        let scheduleChanged = context.scheduleChanged
        let kinds = engine.controlCatalog.kinds
        let known = kinds.map(\.kind)

        router.get("/v1/control-kinds") { _, _ in
            .json(V1.ControlKindList(kinds))
        }

        router.post("/v1/controls") { request, _ in
            let body = try request.decode(V1.PlaceControlBody.self)
            if let id = body.id { try APIFields.identifier(id, field: "id") }
            let control = try await mappingControlErrors(knownKinds: known) {
                try await engine.placeControl(kind: body.kind, id: body.id, configuration: body.configuration ?? [:])
            }
            var response = HTTPResponse.json(V1.Control(control), status: .created)
            response.headers["Location"] = "/v1/controls/\(control.id)"
            return response
        }

        router.get("/v1/controls") { _, _ in
            let controls = try await mappingControlErrors(knownKinds: known) { try await engine.placedControls() }
            return .json(V1.ControlList(controls))
        }

        router.get("/v1/controls/{id}") { _, parameters in
            let id = try parameters.require("id")
            return .json(V1.Control(try await mappingControlErrors(knownKinds: known) { try await engine.control(id: id) }))
        }

        router.delete("/v1/controls/{id}") { _, parameters in
            let id = try parameters.require("id")
            try await mappingControlErrors(knownKinds: known) { try await engine.removeControl(id: id) }
            return HTTPResponse(status: .noContent)
        }

        router.get("/v1/control-reloads") { _, _ in
            let reloads = try await mappingControlErrors(knownKinds: known) { try await engine.controlReloads() }
            return .json(V1.ControlReloadList(reloads))
        }

        router.post("/v1/controls/{id}/toggle", notifiesChanges: false) { request, parameters in
            let id = try parameters.require("id")
            let isDryRun = try APIQuery.bool("dryRun", in: request) ?? false
            let key = try IntentsResource.idempotencyKey(in: request)
            let body = try request.decode(V1.ToggleControlBody.self)
            let outcome = try await mappingControlErrors(knownKinds: known) {
                try await performer(runner, id).performControl(id: id, value: body.value, idempotencyKey: key,
                                                               dryRun: isDryRun)
            }
            return answer(outcome, metrics: metrics, scheduleChanged: scheduleChanged)
        }

        router.post("/v1/controls/{id}/press", notifiesChanges: false) { request, parameters in
            let id = try parameters.require("id")
            let isDryRun = try APIQuery.bool("dryRun", in: request) ?? false
            let key = try IntentsResource.idempotencyKey(in: request)
            if !request.body.isEmpty { _ = try request.decode(V1.PressControlBody.self) }
            let outcome = try await mappingControlErrors(knownKinds: known) {
                try await performer(runner, id).pressControl(id: id, idempotencyKey: key, dryRun: isDryRun)
            }
            return answer(outcome, metrics: metrics, scheduleChanged: scheduleChanged)
        }
    }

    /// The runner, or (a daemon serving no intents) the refusal a control that cannot be performed gets.
    private static func performer(_ runner: IntentRunner?, _ id: String) throws -> IntentRunner {
        guard let runner else { throw ControlError.unknownControl(id) }
        return runner
    }

    private static func answer(_ outcome: WidgetHost.ControlOutcome, metrics: EngineMetrics,
                               scheduleChanged: @Sendable () -> Void) -> HTTPResponse {
        let intent = outcome.intent
        if !intent.isDryRun && !intent.isReplay { metrics.intentPerformed() }
        if !intent.isDryRun && (!intent.isReplay || !intent.reloads.isEmpty) { scheduleChanged() }
        var response = HTTPResponse.json(V1.ControlOutcome(outcome))
        if intent.idempotency != nil {
            response.headers[IntentsResource.replayedHeader] = intent.isReplay ? "true" : "false"
        }
        return response
    }
}
