import ActivityKit
import Foundation
import HTTPServer
import TapCharts
import WidgetHost

/// Live Activities, as the app and the user see them: start, update and end activities, read them with their
/// history, ask what the Lock Screen showed, rotate tokens, flip the user's switches.
///
/// - `GET /v1/activities?type=&state=` → ``V1/ActivityList`` (newest first; each filter repeatable or a comma
///   list); 400 `invalid_query` (a state that is not one), 422 `unknown_attributes_type`
/// - `POST /v1/activities` ``V1/StartActivityRequest`` → 201 ``V1/Activity`` with `Location`; 422
///   `unknown_attributes_type` / `undecodable_attributes` / `undecodable_content_state` / `too_large` /
///   `invalid_channel`, 409 `activities_disabled` / `too_many_activities`
/// - `GET /v1/activities/{id}` → ``V1/Activity`` with its history; 404 `unknown_activity`
/// - `POST /v1/activities/{id}/update` ``V1/UpdateActivityRequest`` and `…/end` ``V1/EndActivityRequest`` →
///   ``V1/ActivityChangeResult`` (`applied`, or `ignored` with the reason, as app code is never told); 404, 422
///   `undecodable_content_state`
/// - `GET /v1/activities/{id}/screen?at=` → ``V1/ActivityScreen``; 422 `future_time`, `invalid_date`
/// - `GET /v1/activities/{id}/tokens` → ``V1/ActivityTokenList``; `POST …/tokens/rotate` → ``V1/RotatedToken``,
///   409 `no_push_token`
/// - `GET /v1/activities/authorization` → ``V1/ActivityAuthorizationSwitches``; `PUT` sets them
/// - `GET /v1/activity-types` → ``V1/ActivityTypeList``; `GET /v1/activity-types/{name}/tokens`,
///   `POST /v1/activity-types/{name}/push-to-start-token/rotate`; 404 `unknown_attributes_type`
///
/// Every change runs the change hook, so the daemon's scheduler looks again for the next transition (an end, a
/// stale date, a dismissal) it must settle on time.
enum ActivitiesResource: APIResource {
    static func register(in router: inout APIRouter, context: APIContext) {
        let activities = context.engine.activities

        router.get("/v1/activities") { request, _ in
            let states = try stateFilter(request)
            let types = try APIQuery.list("type", in: request)
            if let types {
                let known = Set(try activities.attributesTypes().map(\.name))
                if let unknown = types.first(where: { !known.contains($0) }) {
                    throw APIError.unknownAttributesTypeInRequest(unknown)
                }
            }
            let records = try mappingActivityErrors {
                try activities.activities(attributesType: types?.count == 1 ? types?.first : nil, states: states)
            }
            return .json(V1.ActivityList(records.filter { types?.contains($0.attributesType) ?? true }))
        }

        router.post("/v1/activities") { request, _ in
            let start = try request.decode(V1.StartActivityRequest.self).request()
            let record = try namingAttributesTypeInRequest { try activities.start(start) }
            var response = HTTPResponse.json(V1.Activity(record), status: .created)
            response.headers["Location"] = "/v1/activities/\(record.id)"
            return response
        }

        router.get("/v1/activities/authorization") { _, _ in
            .json(V1.ActivityAuthorizationSwitches(activities.authorization))
        }

        router.put("/v1/activities/authorization") { request, _ in
            let body = try request.decode(V1.ActivityAuthorizationSwitches.self)
            try mappingActivityErrors { try activities.setAuthorization(body.value) }
            return .json(V1.ActivityAuthorizationSwitches(activities.authorization))
        }

        router.get("/v1/activities/{id}") { _, parameters in
            let id = try parameters.require("id")
            let (record, history) = try mappingActivityErrors {
                (try activities.activity(id: id), try activities.history(activityID: id))
            }
            return .json(V1.Activity(record, history: history))
        }

        router.post("/v1/activities/{id}/update") { request, parameters in
            let id = try parameters.require("id")
            try mappingActivityErrors { _ = try activities.activity(id: id) }
            let body = try request.decode(V1.UpdateActivityRequest.self)
            let outcome = try mappingActivityErrors {
                try activities.update(activityID: id, content: body.content.value, alert: body.alert?.value,
                                      timestamp: body.timestamp)
            }
            return .json(V1.ActivityChangeResult(try mappingActivityErrors { try activities.activity(id: id) },
                                                 outcome: outcome))
        }

        router.post("/v1/activities/{id}/end") { request, parameters in
            let id = try parameters.require("id")
            try mappingActivityErrors { _ = try activities.activity(id: id) }
            let body = try request.decode(V1.EndActivityRequest.self)
            let outcome = try mappingActivityErrors {
                try activities.end(activityID: id, content: body.content?.value,
                                   dismissalPolicy: body.dismissalPolicy?.value ?? .default, timestamp: body.timestamp)
            }
            return .json(V1.ActivityChangeResult(try mappingActivityErrors { try activities.activity(id: id) },
                                                 outcome: outcome))
        }

        router.get("/v1/activities/{id}/screen") { request, parameters in
            let id = try parameters.require("id")
            let at = try APIQuery.date("at", in: request)
            let screen = try mappingActivityErrors {
                try activities.screen(activityID: id, at: at ?? context.engine.clock.now)
            }
            return .json(V1.ActivityScreen(screen))
        }

        router.get("/v1/activities/{id}/chart.svg") { request, parameters in
            let id = try parameters.require("id")
            let until = try APIQuery.date("until", in: request)
            let svg = try mappingActivityErrors {
                try ActivityChart.draw(activities, activityID: id, until: until ?? context.engine.clock.now)
            }
            return HTTPResponse(status: .ok, headers: ["Content-Type": "image/svg+xml; charset=utf-8"],
                                body: Data(svg.utf8))
        }

        router.get("/v1/activities/{id}/tokens") { _, parameters in
            let id = try parameters.require("id")
            return .json(V1.ActivityTokenList(try mappingActivityErrors { try activities.tokens(activityID: id) }))
        }

        router.post("/v1/activities/{id}/tokens/rotate") { _, parameters in
            let id = try parameters.require("id")
            return .json(V1.RotatedToken(try mappingActivityErrors { try activities.rotateToken(activityID: id) }))
        }

        router.get("/v1/activity-types") { _, _ in
            .json(V1.ActivityTypeList(try mappingActivityErrors { try activities.attributesTypes() },
                                      schemas: context.engine.catalog.contentStateSchema))
        }

        router.get("/v1/activity-types/{name}/tokens") { _, parameters in
            let name = try parameters.require("name")
            return .json(V1.ActivityTokenList(try mappingActivityErrors {
                try activities.pushToStartTokens(attributesType: name)
            }))
        }

        router.post("/v1/activity-types/{name}/push-to-start-token/rotate") { _, parameters in
            let name = try parameters.require("name")
            return .json(V1.RotatedToken(try mappingActivityErrors {
                try activities.rotatePushToStartToken(attributesType: name)
            }))
        }
    }

    /// The `state` filter: each value an `ActivityState` name, else 400 `invalid_query`.
    private static func stateFilter(_ request: HTTPRequest) throws -> Set<ActivityState>? {
        try APIQuery.list("state", in: request).map { names in
            Set(try names.map { name in
                guard let state = ActivityState(rawValue: name) else {
                    throw APIError.invalidQuery(
                        "state", "expected one of \(ActivityState.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return state
            })
        }
    }
}
