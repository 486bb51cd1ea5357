import Foundation
import HTTPServer
import Push
import WidgetHost

/// The update planner and its outbox: hosts post state changes as they happen; the planner decides what goes out and
/// when; the outbox holds the planned pushes until they are delivered (here, to the engine's own device).
///
/// - `POST /v1/activities/{id}/states` ``V1/SubmitStateRequest`` → ``V1/PlannerDecision``; 404 `unknown_activity`
///   when the body names no attributes type and the engine has no such activity; 409 `attributes_type_mismatch`;
///   422 `invalid_identifier` / `unbuildable_push`
/// - `GET /v1/push/decisions?activity=&kind=&limit=` → ``V1/PlannerDecisionList`` (oldest first)
/// - `GET /v1/push/outbox?status=&activity=&limit=` → ``V1/OutboxList`` (pending first)
/// - `POST /v1/push/outbox/deliver` → ``V1/OutboxDeliveryList``: the pending pushes due now, applied to the engine's
///   device and marked with its answer
/// - `GET /v1/push/policies/{attributesType}` → ``V1/PlannerPolicyDocument``; `PUT` a ``PlannerPolicy`` (absent
///   members default) → the same; 422 `invalid_policy`, `invalid_identifier`
enum PushPlannerResource: APIResource {
    /// The most rows one list answers.
    static let maximumLimit = 1000

    static func register(in router: inout APIRouter, context: APIContext) {
        let planner = context.push.planner
        let activities = context.engine.activities

        router.post("/v1/activities/{id}/states") { request, parameters in
            let id = try parameters.require("id")
            let body = try request.decode(V1.SubmitStateRequest.self)
            let attributesType = try body.attributesType
                ?? mappingActivityErrors { try activities.activity(id: id).attributesType }
            let decision = try mappingPlannerErrors {
                try planner.submit(activityID: id, attributesType: attributesType, state: body.state,
                                   frequentPushes: body.frequentPushes ?? activities.authorization.frequentPushesEnabled)
            }
            return .json(V1.PlannerDecision(decision))
        }

        router.get("/v1/push/decisions") { request, _ in
            let kinds = try APIQuery.list("kind", in: request).map { names in
                Set(try names.map { name in
                    guard let kind = PlannerDecision.Kind(rawValue: name) else {
                        throw APIError.invalidQuery("kind", "expected one of "
                            + PlannerDecision.Kind.allCases.map(\.rawValue).joined(separator: ", "))
                    }
                    return kind
                })
            }
            let decisions = try planner.decisions(
                activityID: try text("activity", request), kinds: kinds,
                limit: try APIQuery.integer("limit", in: request, range: 1...maximumLimit) ?? maximumLimit)
            return .json(V1.PlannerDecisionList(decisions))
        }

        router.get("/v1/push/outbox") { request, _ in
            let status = try APIQuery.choice("status", in: request, among: OutboxPush.Status.allCases.map(\.rawValue))
            let pushes = try planner.outbox.pushes(
                status: status.flatMap(OutboxPush.Status.init(rawValue:)), activityID: try text("activity", request),
                limit: try APIQuery.integer("limit", in: request, range: 1...maximumLimit) ?? maximumLimit)
            return .json(V1.OutboxList(pushes, counts: try planner.outbox.counts()))
        }

        router.post("/v1/push/outbox/deliver") { _, _ in
            .json(V1.OutboxDeliveryList(try mappingActivityErrors { try activities.deliver(outbox: planner.outbox) }))
        }

        router.get("/v1/push/policies/{attributesType}") { _, parameters in
            let type = try parameters.require("attributesType")
            return .json(V1.PlannerPolicyDocument(type, try planner.policy(for: type)))
        }

        router.put("/v1/push/policies/{attributesType}") { request, parameters in
            let type = try parameters.require("attributesType")
            let policy = try request.decode(PlannerPolicy.self)
            try mappingPlannerErrors { try planner.setPolicy(policy, for: type) }
            return .json(V1.PlannerPolicyDocument(type, try planner.policy(for: type)))
        }
    }

    /// A non-empty query text, or nil when absent; 400 `invalid_query` when empty.
    private static func text(_ name: String, _ request: HTTPRequest) throws -> String? {
        guard let value = request.query(name) else { return nil }
        guard !value.isEmpty else { throw APIError.invalidQuery(name, "expected a non-empty value") }
        return value
    }
}
