import HTTPServer
import Synchronization

/// The API's own description.
///
/// - `GET /v1/openapi.json` → the OpenAPI 3.1 document (`OpenAPIDocument`) for the served catalog, built on the
///   first request and kept.
///
/// Building it waits for that request because it lists every time zone a tap report may use, which loads ICU's
/// zone data (about 3 MiB resident): an idle daemon that is never asked for its description does not carry it.
enum OpenAPIResource: APIResource {
    static func register(in router: inout APIRouter, context: APIContext) {
        let kinds = context.engine.catalog.kinds.map(\.kind)
        let routeNames = context.routes.table.routes.map(\.name)
        let intents = context.intents?.intents.intents.map(\.name) ?? []
        let served = ServedDocument()
        router.get("/v1/openapi.json") { _, _ in
            served.response.withLock { served in
                if let served { return served }
                let document = OpenAPIDocument(kinds: kinds, intents: intents, routeNames: routeNames)
                var response = HTTPResponse(status: .ok, body: document.data)
                response.headers["Content-Type"] = "application/json"
                served = response
                return response
            }
        }
    }
}

/// The document's response, built by the first request that asks for it and kept.
private final class ServedDocument: Sendable {
    let response = Mutex<HTTPResponse?>(nil)
}
