import JSON
import WidgetHost
import WidgetKit

/// The document's `paths`: one entry per route the server registers (a test holds them equal).
extension OpenAPIDocument {
    /// The `{kind}` path parameter.
    var kindParameter: JSONValue {
        Self.pathParameter("kind", Self.string(values: kinds), "A widget kind of the served catalog.")
    }

    /// The `{id}` path parameter.
    static let idParameter = pathParameter("id", string(pattern: InstancesResource.idPattern), "An instance id.")

    /// The `at` query parameter.
    static let atParameter = queryParameter(
        "at", string(format: "date-time", pattern: dateTimePattern),
        "The instant to evaluate at (ISO 8601); the engine's now when absent.")

    /// A date-time as the server reads it (``DateTimeFormat/instant``, read by ``DateTimeText``): upper-case `T`
    /// and `Z`, seconds, an optional fraction of up to 9 digits, `Z` or an offset up to ±23:59.
    static let dateTimePattern = DateTimeFormat.instant.pattern

    /// Links from a placed instance to the operations on it, for clients and stateful testers.
    static let instanceLinks: [String: JSONValue] = [
        "GetInstance": ["operationId": "getInstance", "parameters": ["id": "$response.body#/id"]],
        "UpdateInstance": ["operationId": "updateInstance", "parameters": ["id": "$response.body#/id"]],
        "DeleteInstance": ["operationId": "deleteInstance", "parameters": ["id": "$response.body#/id"]],
        "GetEntry": ["operationId": "getEntry", "parameters": ["id": "$response.body#/id"]],
    ]

    var paths: [String: JSONValue] {
        typealias D = OpenAPIDocument
        let core: [String: JSONValue] = [
            "/healthz": ["get": D.operation(
                "getHealth", "Liveness: 200 while the daemon serves.",
                success: ("200", D.json("Health", "The daemon is up.")))],
            "/metrics": ["get": D.operation(
                "getMetrics", "Prometheus metrics (text format 0.0.4).",
                success: ("200", ["description": "The metrics.", "content": ["text/plain": ["schema": D.string()]]]))],
            "/v1/openapi.json": ["get": D.operation(
                "getOpenAPI", "This document.",
                success: ("200", ["description": "The OpenAPI document.",
                                  "content": ["application/json": ["schema": D.anyObject]]]))],
            "/v1/kinds": ["get": D.operation(
                "listKinds", "The widget kinds and their parameter schemas.",
                success: ("200", D.json("KindList", "Every kind of the catalog.")))],
            "/v1/kinds/{kind}": ["get": D.operation(
                "getKind", "One widget kind.", parameters: [kindParameter],
                success: ("200", D.json("Kind", "The kind.")), errors: [404])],
            "/v1/kinds/{kind}/parameters/{name}/options": ["get": D.operation(
                "listParameterOptions", "Choices for an entity or enum parameter: suggestions, or those matching `query`.",
                parameters: [kindParameter, D.pathParameter("name", D.string(), "A parameter of the kind."),
                             D.queryParameter("query", D.string(), "Search text (entity string queries).")],
                success: ("200", D.json("OptionList", "The options.")), errors: [404, 422])],
            "/v1/kinds/{kind}/reload": ["post": D.operation(
                "reloadKind", "Reload every instance of a kind (budgeted, like WidgetCenter.reloadTimelines(ofKind:)).",
                parameters: [kindParameter],
                success: ("200", D.json("ReloadList", "The provider runs made now.")), errors: [404])],
            "/v1/reload": ["post": D.operation(
                "reloadAll", "Reload every instance (budgeted, like WidgetCenter.reloadAllTimelines()).",
                success: ("200", D.json("ReloadList", "The provider runs made now.")))],
            "/v1/instances": [
                "get": D.operation(
                    "listInstances", "Every placed instance, oldest first.",
                    success: ("200", D.json("InstanceList", "The instances."))),
                "post": D.operation(
                    "placeInstance", "Place a widget: resolve its parameters, build or share its timeline, schedule it.",
                    body: "PlaceRequest",
                    success: ("201", D.json("InstanceState", "The placed instance's state.")),
                    errors: [404, 409, 422], links: D.instanceLinks),
            ],
            "/v1/instances/{id}": [
                "get": D.operation(
                    "getInstance", "An instance's state at `at`: current entry, next reload, budget, diagnostics.",
                    parameters: [D.idParameter, D.atParameter],
                    success: ("200", D.json("InstanceState", "The state.")), errors: [400, 404, 422]),
                "patch": D.operation(
                    "updateInstance", "Replace an instance's parameters (the user edited the widget).",
                    parameters: [D.idParameter], body: "UpdateRequest",
                    success: ("200", D.json("InstanceState", "The state afterwards.")), errors: [404, 422]),
                "delete": D.operation(
                    "deleteInstance", "Remove an instance.", parameters: [D.idParameter],
                    success: ("204", ["description": "Removed."]), errors: [404]),
            ],
            "/v1/instances/{id}/timeline": ["get": D.operation(
                "getTimeline", "The stored timeline of the instance's configuration.", parameters: [D.idParameter],
                success: ("200", D.json("Timeline", "The timeline.")), errors: [404, 409])],
            "/v1/instances/{id}/entry": ["get": D.operation(
                "getEntry", "The entry shown at `at` (default now).", parameters: [D.idParameter, D.atParameter],
                success: ("200", D.json("EntryAt", "The entry.")), errors: [400, 404, 409, 422])],
            "/v1/instances/{id}/reloads": ["get": D.operation(
                "listInstanceReloads", "The provider runs of the instance's current configuration that served it, "
                    + "newest first: reason, time, who was charged to the budget, outcome.",
                parameters: [D.idParameter, D.queryParameter(
                    "limit", D.integer(in: 1...InstancesResource.maximumReloadsLimit), "At most this many (default 50).")],
                success: ("200", D.json("ReloadList", "The runs.")), errors: [400, 404])],
            "/v1/instances/{id}/diagnostics": ["get": D.operation(
                "getDiagnostics", "The timeline doctor's findings, most important first.", parameters: [D.idParameter],
                success: ("200", D.json("DiagnosticList", "The findings.")), errors: [404])],
            "/v1/routes": ["get": D.operation(
                "listRoutes", "The deep-link routes of the loaded table.",
                success: ("200", D.json("RouteList", "The routes.")))],
            "/v1/routes/match": ["post": D.operation(
                "matchRoute", "Route a URL; `matched: false` with a reason when no route matches.", body: "RouteRequest",
                success: ("200", D.json("Match", "The outcome.")), errors: [422])],
            "/v1/routes/matches": ["post": D.operation(
                "matchAllRoutes",
                "Every route that takes a URL, in the order routing tries them, the winner first (what a handler that declines falls through to); empty with a reason when none does.",
                body: "RouteRequest", success: ("200", D.json("MatchList", "The matches.")), errors: [422])],
            "/v1/routes/explain": ["post": D.operation(
                "explainRoute", "Every candidate route for a URL and what happened to it.", body: "RouteRequest",
                success: ("200", D.json("Explanation", "The explanation.")), errors: [422])],
            "/v1/routes/reload": ["post": D.operation(
                "reloadRoutes",
                "Read the route files again and swap the new table in whole; with load errors or lint errors (an example its route no longer takes), the table in use stays (422, every problem in `detail.errors`).",
                success: ("200", D.json("RouteReload", "The table now in use.")), errors: [409, 422])],
            "/v1/routes/build": ["post": D.operation(
                "buildRoute",
                "Build a URL for a route from its parameters (checked by routing it back); a path value its group, or a query value its query rule, does not take is 422 `invalid_parameter` with `detail.parameter`, `detail.value` and `detail.pattern`.",
                body: "BuildRequest", success: ("200", D.json("BuiltURL", "The URL.")), errors: [404, 422])],
            "/v1/clock": [
                "get": D.operation("getClock", "The engine's clock.", success: ("200", D.json("Clock", "The clock."))),
                "put": D.operation(
                    "setClock", "Set a virtual clock, then run the reloads due at the new time.", body: "SetClockRequest",
                    success: ("200", D.json("ClockChange", "The clock and the provider runs made.")), errors: [409, 422, 503]),
            ],
            "/v1/clock/advance": ["post": D.operation(
                "advanceClock", "Advance a virtual clock, running each reload due on the way at its due time.",
                body: "AdvanceClockRequest",
                success: ("200", D.json("ClockChange", "The clock and the provider runs made.")), errors: [409, 503])],
        ]
        return core.merging(intentPaths) { first, _ in first }
            .merging(Self.tapPaths) { first, _ in first }
            .merging(Self.stackPaths) { first, _ in first }
            .merging(Self.activityPaths) { first, _ in first }
            .merging(Self.pushPaths) { first, _ in first }
            .merging(Self.plannerPaths) { first, _ in first }
            .merging(Self.controlPaths) { first, _ in first }
            .merging(Self.dashboardPaths) { first, _ in first }
    }
}
