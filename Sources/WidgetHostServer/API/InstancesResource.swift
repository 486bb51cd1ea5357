import Foundation
import HTTPServer
import WidgetHost
import WidgetKit

/// Placed widgets: place, list, read, reconfigure, remove; and each one's timeline, entry at T and diagnostics.
///
/// - `POST /v1/instances` ``V1/PlaceRequest`` → 201 ``V1/InstanceState`` with `Location`; 404 `unknown_kind`,
///   400 `unknown_family`, 409 `duplicate_instance`, 422 `unsupported_family` / `invalid_parameter` /
///   `unknown_parameter` / `missing_parameter`
/// - `GET /v1/instances` → ``V1/InstanceList``
/// - `GET /v1/instances/{id}?at=` → ``V1/InstanceState`` (at `at`, default now); 404 `unknown_instance`
/// - `PATCH /v1/instances/{id}` ``V1/UpdateRequest`` → ``V1/InstanceState``
/// - `DELETE /v1/instances/{id}` → 204
/// - `GET /v1/instances/{id}/timeline` → ``V1/Timeline``; 409 `timeline_unavailable`
/// - `GET /v1/instances/{id}/entry?at=` → ``V1/EntryAt``; 409 `timeline_unavailable`
/// - `GET /v1/instances/{id}/reloads?limit=` → ``V1/ReloadList``: the provider runs of its current configuration
///   that served it, newest first (default 50); 404 `unknown_instance`, 400 `invalid_query`
/// - `GET /v1/instances/{id}/diagnostics` → ``V1/DiagnosticList``
enum InstancesResource: APIResource {
    /// The most provider runs `GET /v1/instances/{id}/reloads` lists.
    static let maximumReloadsLimit = 500

    static func register(in router: inout APIRouter, context: APIContext) {
        let engine = context.engine

        router.post("/v1/instances") { request, _ in
            let body = try request.decode(V1.PlaceRequest.self)
            if let id = body.id { try validate(id: id) }
            guard let family = WidgetFamily(rawValue: body.family) else {
                throw APIError(EngineError.unknownFamily(body.family))
            }
            let state = try await mappingEngineErrors {
                try await engine.place(kind: body.kind, family: family, parameters: body.parameters ?? [:], id: body.id)
            }
            var response = HTTPResponse.json(V1.InstanceState(state), status: .created)
            response.headers["Location"] = "/v1/instances/\(state.instance.id)"
            return response
        }

        router.get("/v1/instances") { _, _ in
            let instances = try await mappingEngineErrors { try await engine.instances() }
            return .json(V1.InstanceList(instances: instances.map(V1.Instance.init)))
        }

        router.get("/v1/instances/{id}") { request, parameters in
            let id = try parameters.require("id")
            let at = try APIQuery.date("at", in: request)
            let state = try await mappingEngineErrors { try await engine.state(ofInstance: id, at: at) }
            return .json(V1.InstanceState(state))
        }

        router.patch("/v1/instances/{id}") { request, parameters in
            let id = try parameters.require("id")
            let body = try request.decode(V1.UpdateRequest.self)
            let state = try await mappingEngineErrors {
                try await engine.update(instanceID: id, parameters: body.parameters)
            }
            return .json(V1.InstanceState(state))
        }

        router.delete("/v1/instances/{id}") { _, parameters in
            let id = try parameters.require("id")
            try await mappingEngineErrors { try await engine.remove(instanceID: id) }
            return HTTPResponse(status: .noContent)
        }

        router.get("/v1/instances/{id}/timeline") { _, parameters in
            let id = try parameters.require("id")
            let state = try await mappingEngineErrors { try await engine.state(ofInstance: id) }
            guard let timeline = state.timeline else {
                throw APIError(EngineError.timelineRejected(kind: state.instance.kind,
                                                            reason: "no timeline has been accepted yet"))
            }
            return .json(V1.Timeline(timeline))
        }

        // Answered on the worker thread from the engine's timeline cache: no task, no wait for the engine actor.
        let entryResponses = EntryResponses()
        router.getSynchronous("/v1/instances/{id}/entry") { request, parameters in
            let id = try parameters.require("id")
            let at = try APIQuery.date("at", in: request)
            return entryResponses.response(for: try mappingEngineErrors { try engine.shownEntry(instanceID: id, at: at) })
        }

        router.get("/v1/instances/{id}/reloads") { request, parameters in
            let id = try parameters.require("id")
            let limit = try APIQuery.integer("limit", in: request, range: 1...maximumReloadsLimit) ?? 50
            let records = try await mappingEngineErrors { try await engine.reloads(ofInstance: id, limit: limit) }
            return .json(V1.ReloadList(reloads: records.map(V1.Reload.init)))
        }

        router.get("/v1/instances/{id}/diagnostics") { _, parameters in
            let id = try parameters.require("id")
            let diagnostics = try await mappingEngineErrors { try await engine.diagnostics(instanceID: id) }
            return .json(V1.DiagnosticList(diagnostics: diagnostics.map(V1.Diagnostic.init)))
        }
    }

    /// The characters an instance id may use, so that it is one clean path segment.
    static let idPattern = "^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$"

    /// Refuses ids that would not survive as one path segment: 400 `invalid_field`.
    static func validate(id: String) throws {
        guard id.range(of: idPattern, options: .regularExpression) != nil else {
            throw APIError.invalidField("id", "an instance id is 1 to 128 characters of A-Z a-z 0-9 . _ -, "
                                            + "not starting with a dot")
        }
    }
}
