import WidgetHost

/// Reloading timelines as `WidgetCenter` would: one kind, or everything. Both are charged to each instance's
/// budget; instances out of budget are deferred (their state's `nextReload` says until when).
///
/// - `POST /v1/kinds/{kind}/reload` → ``V1/ReloadList``; 404 `unknown_kind`
/// - `POST /v1/reload` → ``V1/ReloadList``
enum ReloadsResource: APIResource {
    static func register(in router: inout APIRouter, context: APIContext) {
        let engine = context.engine

        router.post("/v1/kinds/{kind}/reload") { _, parameters in
            let kind = try parameters.require("kind")
            let records = try await mappingEngineErrors { try await engine.reloadTimelines(ofKind: kind) }
            return .json(V1.ReloadList(reloads: records.map(V1.Reload.init)))
        }

        router.post("/v1/reload") { _, _ in
            let records = try await mappingEngineErrors { try await engine.reloadAllTimelines() }
            return .json(V1.ReloadList(reloads: records.map(V1.Reload.init)))
        }
    }
}
