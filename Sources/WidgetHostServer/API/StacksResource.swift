import Foundation
import HTTPServer
import WidgetHost

/// Smart Stacks: create, list, read, replace, delete, and rank one at an instant.
///
/// - `GET /v1/stacks` → ``V1/StackList``
/// - `POST /v1/stacks` ``V1/CreateStackRequest`` → 201 ``V1/Stack`` with `Location`; 409 `duplicate_stack`, 422
///   `unknown_instance` / `already_in_stack` (an instance listed twice)
/// - `GET /v1/stacks/{id}` → ``V1/Stack``; 404 `unknown_stack`
/// - `PUT /v1/stacks/{id}` ``V1/ReplaceStackRequest`` → ``V1/Stack``; 404 `unknown_stack`, 422 `unknown_instance` /
///   `already_in_stack`
/// - `DELETE /v1/stacks/{id}` → 204; 404 `unknown_stack`
/// - `GET /v1/stacks/{id}/ranking?at=` → ``V1/StackRanking``; 404 `unknown_stack`, 400 `invalid_query`. Ranking
///   records the top (rotation is rate-limited from it), as the device does when it shows the stack; an `at`
///   before the recorded state changes nothing.
enum StacksResource: APIResource {
    /// The most instances one stack may list.
    static let maximumSize = 100

    static func register(in router: inout APIRouter, context: APIContext) {
        let engine = context.engine

        router.get("/v1/stacks") { _, _ in
            let stacks = try await mappingEngineErrors { try await engine.stacks() }
            return .json(V1.StackList(stacks))
        }

        router.post("/v1/stacks") { request, _ in
            let body = try request.decode(V1.CreateStackRequest.self)
            try APIFields.identifier(body.id, field: "id")
            let instances = try checked(body.instances ?? [])
            let stack = try await namingInstancesInBody { try await engine.createStack(body.id, instanceIDs: instances) }
            var response = HTTPResponse.json(V1.Stack(stack), status: .created)
            response.headers["Location"] = "/v1/stacks/\(stack.id)"
            return response
        }

        router.get("/v1/stacks/{id}") { _, parameters in
            let id = try parameters.require("id")
            let stack = try await mappingEngineErrors { try await engine.stack(id) }
            return .json(V1.Stack(stack))
        }

        router.put("/v1/stacks/{id}") { request, parameters in
            let id = try parameters.require("id")
            let body = try request.decode(V1.ReplaceStackRequest.self)
            let instances = try checked(body.instances)
            let stack = try await namingInstancesInBody { try await engine.replaceStack(id, instanceIDs: instances) }
            return .json(V1.Stack(stack))
        }

        router.delete("/v1/stacks/{id}") { _, parameters in
            let id = try parameters.require("id")
            try await mappingEngineErrors { try await engine.deleteStack(id) }
            return HTTPResponse(status: .noContent)
        }

        router.get("/v1/stacks/{id}/ranking") { request, parameters in
            let id = try parameters.require("id")
            let at = try APIQuery.date("at", in: request)
            let ranking = try await mappingEngineErrors { try await engine.rankStack(id, at: at) }
            return .json(V1.StackRanking(ranking))
        }
    }

    /// The instance list, refused with 400 `invalid_field` when longer than ``maximumSize``.
    private static func checked(_ instances: [String]) throws -> [String] {
        guard instances.count <= maximumSize else {
            throw APIError.invalidField("instances", "a stack holds at most \(maximumSize) instances")
        }
        return instances
    }
}
