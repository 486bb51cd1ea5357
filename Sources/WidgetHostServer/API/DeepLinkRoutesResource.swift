import DeepLinks
import HTTPServer
import JSON

/// Deep-link routing over the `Routes/` table: list, match, explain, build. Each answers on the server's worker
/// thread (no task), and the `POST`s, being questions, do not wake the reload scheduler.
///
/// - `GET /v1/routes` → ``V1/RouteList``
/// - `POST /v1/routes/match` ``V1/RouteRequest`` → ``V1/Match`` (`matched: false` with a reason when no route
///   matches); 422 `invalid_url` / `match_failed`
/// - `POST /v1/routes/matches` ``V1/RouteRequest`` → ``V1/MatchList``: every route that takes the URL, in the order
///   routing tries them, the winner first (what a handler that declines falls through to); 422 as above
/// - `POST /v1/routes/explain` ``V1/RouteRequest`` → ``V1/Explanation``; 422 `invalid_url`
/// - `POST /v1/routes/build` ``V1/BuildRequest`` → ``V1/BuiltURL``; 404 `unknown_route`, 422
///   `missing_parameter` / `unknown_parameter` / `invalid_parameter` / `route_not_buildable`
/// - `POST /v1/routes/reload` → ``V1/RouteReload``: the route files read again and swapped in whole; 422
///   `invalid_route_table` (every load or lint error, with file, line and column; the table in use stays), 409
///   `routes_not_reloadable`. It answers on the worker thread too (building takes milliseconds), and, changing routes
///   only, does not wake the reload scheduler either.
enum DeepLinkRoutesResource: APIResource {
    static func register(in router: inout APIRouter, context: APIContext) {
        let holder = context.routes

        router.getSynchronous("/v1/routes") { _, _ in
            .json(V1.RouteList(routes: holder.table.routes.map(V1.RouteInfo.init)))
        }

        router.postSynchronous("/v1/routes/match") { request, _ in
            let body = try V1.RouteRequest(body: request.body)
            // Written from the lent match: the answer's model, then its text, cost more than routing the URL.
            var writer = JSONTextWriter()
            switch holder.withMatch(body.url, context: try body.context(), { V1.Match.write($0, to: &writer) }) {
            case .success:
                return .json(written: writer)
            case .failure(let failure):
                try refuse(failure)
                return .json(writing: V1.Match(noMatch: failure.description))
            }
        }

        router.postSynchronous("/v1/routes/matches") { request, _ in
            let body = try V1.RouteRequest(body: request.body)
            let result = holder.matches(body.url, context: try body.context())
            if case .failure(let failure) = result { try refuse(failure) }
            return .json(V1.MatchList(result))
        }

        router.postSynchronous("/v1/routes/explain") { request, _ in
            let body = try request.decode(V1.RouteRequest.self)
            let explanation = holder.table.explain(body.url, context: try body.context())
            switch explanation.canonical {
            case .success(let canonical):
                return .json(V1.Explanation(explanation, canonical: canonical))
            case .failure(let failure):
                throw APIError.invalidURL(failure)
            }
        }

        router.postSynchronous("/v1/routes/reload") { _, _ in
            do throws(RouteReloadRefusal) {
                let snapshot = try context.reloadRoutes(trigger: "api")
                return .json(V1.RouteReload(directory: holder.directory ?? "", routes: snapshot.table.routes.count,
                                            generation: snapshot.generation,
                                            warnings: snapshot.table.warnings.map(V1.RouteProblem.init)))
            } catch {
                throw error.apiError
            }
        }

        router.postSynchronous("/v1/routes/build") { request, _ in
            let body = try request.decode(V1.BuildRequest.self)
            let query = (body.query ?? []).map { QueryItem(name: $0.name, value: $0.value) }
            do throws(URLBuildError) {
                let url = try holder.table.url(for: body.route, parameters: body.parameters ?? [:], query: query)
                return .json(V1.BuiltURL(url: url))
            } catch {
                throw APIError(error)
            }
        }
    }

    /// Throws the API error for a routing failure the match endpoints answer with an error: 422 `invalid_url` for a URL
    /// with no canonical form, 422 `match_failed` when a pattern failed (the match limit); returns for "no route".
    private static func refuse(_ failure: RoutingFailure) throws {
        switch failure {
        case .invalidURL(let reason):
            throw APIError.invalidURL(reason)
        case .noRoute:
            return
        case .matchLimitExceeded, .matchError:
            throw APIError(.matchFailed, status: .unprocessableContent, message: failure.description,
                           detail: ["reason": .string(failure.description)])
        }
    }
}
