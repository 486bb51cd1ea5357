import Foundation
import HTTPServer

/// One resource of the `/v1` API: a group of endpoints in one file.
///
/// Handlers decode the request, call the engine (or the route table), and encode the answer; no engine logic
/// lives here. Errors the engine throws become ``APIError``s through the mappings in
/// `APIError+Engine.swift`.
protocol APIResource: Sendable {
    /// Registers the resource's endpoints.
    static func register(in router: inout APIRouter, context: APIContext)
}

/// The WidgetHost HTTP/JSON API over an engine: every `/v1` endpoint, ready for an ``HTTPServer``.
///
/// To add an endpoint, add a `router.get/post/...` line to the resource file it belongs to; to add a resource,
/// write a type conforming to `APIResource` (one file in `API/`), list it in ``resources``, and describe its paths
/// in `OpenAPI/OpenAPIDocument+Paths.swift` (a test checks that the document and the routes agree).
public enum WidgetHostAPI {
    /// Every resource, in the order its routes are registered.
    static let resources: [any APIResource.Type] = [
        KindsResource.self,
        InstancesResource.self,
        ReloadsResource.self,
        DeepLinkRoutesResource.self,
        ClockResource.self,
        IntentsResource.self,
        TapsResource.self,
        StacksResource.self,
        ActivitiesResource.self,
        DevicePushResource.self,
        PushTokensResource.self,
        PushCheckResource.self,
        PushPlannerResource.self,
        ControlsResource.self,
        PushOutboxResource.self,
        OpenAPIResource.self,
        DashboardResource.self,
    ]

    /// The request body cap the daemon documents and configures: 1 MiB. Larger bodies get 413
    /// `payload_too_large` before they are read.
    public static let maximumBodySize = HTTPServer.Configuration.defaultMaximumBodySize

    /// A router with every `/v1` endpoint registered (the server adds `/healthz` and `/metrics`).
    /// - Parameter context: The engine, route table and hooks the handlers use.
    public static func router(context: APIContext) -> HTTPRouter {
        var router = APIRouter(notifyingChangesTo: context.scheduleChanged)
        for resource in resources {
            resource.register(in: &router, context: context)
        }
        return router.router
    }
}
