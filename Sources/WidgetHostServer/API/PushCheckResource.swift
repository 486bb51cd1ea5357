import ActivityKit
import Foundation
import HTTPServer
import Push

/// The push checker: every rule a push breaks, before it is sent (`Docs/push-checker.md`).
///
/// - `POST /v1/push/check` ``V1/PushCheckRequest`` → ``V1/PushCheckResult`` (200 whatever the verdict: the
///   findings are the answer); 422 `unknown_attributes_type` for a type the catalog does not register, 400
///   `invalid_field` unless exactly one of `payload` and `payloadText` is given
///
/// Content states are decoded as the catalog's registered types decode them, as the engine's device does.
enum PushCheckResource: APIResource {
    static func register(in router: inout APIRouter, context: APIContext) {
        let catalog = context.engine.catalog
        let clock = context.engine.clock
        router.post("/v1/push/check", notifiesChanges: false) { request, _ in
            let body = try request.decode(V1.PushCheckRequest.self)
            let payload = try body.payloadBytes()
            var types = catalog.activityTypes
            if let name = body.attributesType {
                types = types.filter { $0.name == name }
                if types.isEmpty { throw APIError.unknownAttributesTypeInRequest(name) }
            }
            let findings = PushChecker.check(headers: body.headers, payload: payload, types: types,
                                             lastTimestamp: body.lastTimestamp, now: clock.now)
            return .json(V1.PushCheckResult(findings))
        }
    }
}
