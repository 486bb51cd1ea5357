import Foundation
import JSON
import WidgetHost
import WidgetKit

/// The OpenAPI 3.1 description of the `/v1` API, served at `GET /v1/openapi.json`.
///
/// Built in code from the same constants the handlers use (families, the instance id pattern, the clock
/// limits) and from the served catalog's kind names, so it cannot drift from the server by a stale copy. A test
/// checks that its paths and methods are exactly the router's, and schemathesis (`Tests/api/`) checks live
/// responses against its schemas.
///
/// Request schemas are exact (unknown members refused, required members required): a body the schema accepts
/// passes decoding. What only the engine can judge (a parameter value, an entity id, a family the kind does not
/// support) answers 422; a schema-valid request never gets 400.
struct OpenAPIDocument {
    /// The kind names the `{kind}` path parameter and `kind` members may take.
    var kinds: [String]
    /// The names of the interactive intents `{name}` may take.
    var intents: [String] = []
    /// The deep-link route names when the document was built, given as examples (the table can be reloaded).
    var routeNames: [String] = []

    /// The document as JSON.
    var json: JSONValue {
        [
            "openapi": "3.1.0",
            "info": [
                "title": "WidgetHost",
                "version": "1.0.0",
                "description": .string(Self.description),
            ],
            "security": [["bearerAuth": []]],
            "paths": .object(paths),
            "components": [
                "schemas": .object(Self.schemas(kinds: kinds, routeNames: routeNames)
                    .merging(Self.intentSchemas) { first, _ in first }
                    .merging(Self.tapSchemas) { first, _ in first }
                    .merging(Self.stackSchemas) { first, _ in first }
                    .merging(Self.activitySchemas) { first, _ in first }
                    .merging(Self.pushSchemas) { first, _ in first }
                    .merging(Self.plannerSchemas) { first, _ in first }
                    .merging(Self.controlSchemas) { first, _ in first }),
                "responses": ["Error": Self.errorResponse],
                "securitySchemes": [
                    "bearerAuth": [
                        "type": "http", "scheme": "bearer",
                        "description": "Required when the daemon was started with --token (or $WIDGETHOST_TOKEN).",
                    ],
                ],
            ],
        ]
    }

    /// The document as compact JSON bytes.
    var data: Data {
        Data(json.canonicalText.utf8)
    }

    static let description = """
        The WidgetHost daemon: widget kinds and their parameters, placed widget instances with their timelines, \
        entries, reload schedule, budget and diagnostics; timeline reloads; deep-link routing; interactive \
        intents (idempotent, with dry runs); widget taps and their reports; Smart Stacks and their ranking; Live \
        Activities, their history and tokens, and pushes delivered as APNs delivers them; push tokens, the update \
        planner's decisions, its outbox and policies; controls (Control Center, Lock Screen, Action button), toggled and \
        pressed like widget intents; the engine's clock. Errors are `{code, message, detail}` with stable codes. Request bodies are JSON, at most \
        \(WidgetHostAPI.maximumBodySize) bytes (413 `payload_too_large` beyond). Dates are ISO 8601 in UTC. \
        Every request carries `Authorization: Bearer <token>` when the daemon was started with a token.
        """

    /// `#/components/responses/Error`: every 4xx and 5xx.
    static let errorResponse: JSONValue = [
        "description": "An error: a stable `code`, a `message` for people, and structured `detail` (or null).",
        "content": ["application/json": ["schema": ref("Error")]],
    ]
}
