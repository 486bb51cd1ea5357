import DeepLinks
import HTTPServer
import JSON
import WidgetHost

/// Why a route-table reload changed nothing.
public enum RouteReloadRefusal: Error, Sendable, CustomStringConvertible {
    /// The holder was not made from a directory, so there are no files to read again.
    case notReloadable
    /// The files have errors; `kept` is the table still in use.
    case invalidTable(RouteLoadError, kept: RouteTableHolder.Snapshot)

    public var description: String {
        switch self {
        case .notReloadable:
            "the route table was not loaded from a directory, so it cannot be reloaded"
        case let .invalidTable(error, kept):
            "route files have \(error.errors.count) error(s); the table in use (generation \(kept.generation), "
                + "\(kept.table.routes.count) routes) is unchanged: \(error.errors.first?.description ?? "")"
        }
    }

    /// The refusal as the API answers it: 409 `routes_not_reloadable`, or 422 `invalid_route_table` with every
    /// problem (`detail.errors`, `detail.warnings`) and the generation kept.
    var apiError: APIError {
        switch self {
        case .notReloadable:
            return APIError(.routesNotReloadable, status: .conflict, message: description)
        case let .invalidTable(error, kept):
            let problems = { (severity: RouteDiagnostic.Severity) -> JSONValue in
                .array(error.diagnostics.filter { $0.severity == severity }.map { V1.RouteProblem($0).json })
            }
            return APIError(.invalidRouteTable, status: .unprocessableContent, message: description, detail: [
                "errors": problems(.error), "warnings": problems(.warning),
                "generation": .int(kept.generation), "routes": .int(kept.table.routes.count),
            ])
        }
    }
}

extension APIContext {
    /// Reloads the route tables from the holder's directory and logs the outcome (`routes reloaded`, or
    /// `route reload refused` with every problem).
    /// - Parameter trigger: What asked for the reload (`SIGHUP`, `api`), for the log.
    func reloadRoutes(trigger: String) throws(RouteReloadRefusal) -> RouteTableHolder.Snapshot {
        guard let directory = routes.directory else {
            log.log(.warning, "route reload refused", ["trigger": .string(trigger), "reason": "no route directory"])
            throw .notReloadable
        }
        do throws(RouteLoadError) {
            let snapshot = try routes.reload()
            log.log(.info, "routes reloaded", [
                "trigger": .string(trigger), "directory": .string(directory), "routes": .int(snapshot.table.routes.count),
                "generation": .int(snapshot.generation), "warnings": .int(snapshot.table.warnings.count),
            ])
            return snapshot
        } catch {
            let kept = routes.snapshot
            log.log(.error, "route reload refused", [
                "trigger": .string(trigger), "directory": .string(directory), "errors": .int(error.errors.count),
                "problems": .string(error.description), "generation": .int(kept.generation),
            ])
            throw .invalidTable(error, kept: kept)
        }
    }
}
