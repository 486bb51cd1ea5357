/// The API's own description.
///
/// - `GET /v1/openapi.json` → the OpenAPI 3.1 document (`OpenAPIDocument`), built once for the served catalog.
enum OpenAPIResource: APIResource {
    static func register(in router: inout APIRouter, context: APIContext) {
        let kinds = context.engine.catalog.kinds.map(\.kind)
        let routeNames = context.routes.table.routes.map(\.name)
        let intents = context.intents?.intents.intents.map(\.name) ?? []
        let document = OpenAPIDocument(kinds: kinds, intents: intents, routeNames: routeNames)
        var response = HTTPResponse(status: .ok, body: document.data)
        response.headers["Content-Type"] = "application/json"
        let served = response
        router.get("/v1/openapi.json") { _, _ in served }
    }
}
