import HTTPServer
import WidgetHost

/// Widget kinds, their parameter schemas and parameter options.
///
/// - `GET /v1/kinds` → ``V1/KindList``
/// - `GET /v1/kinds/{kind}` → ``V1/Kind``; 404 `unknown_kind`
/// - `GET /v1/kinds/{kind}/parameters/{name}/options?query=` → ``V1/OptionList`` (suggested entities, or those
///   matching `query`, or enum cases); 404 `unknown_kind` / `unknown_parameter`, 422 `parameter_has_no_options`
enum KindsResource: APIResource {
    static func register(in router: inout APIRouter, context: APIContext) {
        let catalog = context.engine.catalog
        let engine = context.engine

        router.get("/v1/kinds") { _, _ in
            .json(V1.KindList(kinds: catalog.kinds.map(V1.Kind.init)))
        }

        router.get("/v1/kinds/{kind}") { _, parameters in
            let kind = try parameters.require("kind")
            guard let descriptor = catalog.descriptor(kind: kind) else { throw APIError(EngineError.unknownKind(kind)) }
            return .json(V1.Kind(descriptor))
        }

        router.get("/v1/kinds/{kind}/parameters/{name}/options") { request, parameters in
            let kind = try parameters.require("kind")
            let name = try parameters.require("name")
            let options: [ParameterOption]
            do {
                options = try await mappingEngineErrors {
                    try await engine.parameterOptions(kind: kind, parameter: name, matching: request.query("query"))
                }
            } catch let error as APIError where error.code == .unknownParameter {
                // The parameter is part of the path here: a missing one is a missing resource.
                var notFound = error
                notFound.status = .notFound
                throw notFound
            }
            return .json(V1.OptionList(options: options.map(V1.Option.init)))
        }
    }
}
