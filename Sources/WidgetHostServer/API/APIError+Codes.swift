import HTTPServer

extension APIError.Code {
    /// 400: a query parameter is missing or malformed (`detail.parameter` names it).
    public static let invalidQuery: Self = "invalid_query"
    /// 404: no widget kind with this name (`detail.kind`).
    public static let unknownKind: Self = "unknown_kind"
    /// 404: no placed widget instance with this id (`detail.instance`).
    public static let unknownInstance: Self = "unknown_instance"
    /// 409: an instance with this id already exists (`detail.instance`).
    public static let duplicateInstance: Self = "duplicate_instance"
    /// 400: the family is not a WidgetKit family name (`detail.family`).
    public static let unknownFamily: Self = "unknown_family"
    /// 422: the kind does not support this family (`detail.supported`).
    public static let unsupportedFamily: Self = "unsupported_family"
    /// 422: a parameter value is wrong for its type (`detail.parameter`, `detail.problem`).
    public static let invalidParameter: Self = "invalid_parameter"
    /// 422 (404 on a parameter's own path): the kind or route has no such parameter (`detail.parameter`).
    public static let unknownParameter: Self = "unknown_parameter"
    /// 422: a required parameter has no value and no default (`detail.parameter`).
    public static let missingParameter: Self = "missing_parameter"
    /// 422: the parameter is not an entity or enum, so it has no options (`detail.parameter`).
    public static let parameterHasNoOptions: Self = "parameter_has_no_options"
    /// 409: the instance has no accepted timeline yet, so there is no entry to show.
    public static let timelineUnavailable: Self = "timeline_unavailable"
    /// 409: the daemon runs on the system clock; only a virtual clock can be set or advanced.
    public static let clockNotVirtual: Self = "clock_not_virtual"
    /// 422: the URL has no canonical form (`detail.reason`).
    public static let invalidURL: Self = "invalid_url"
    /// 422: a route pattern hit PCRE2's match limit, or matching failed (`detail.reason`).
    public static let matchFailed: Self = "match_failed"
    /// 404: no deep-link route with this name (`detail.route`).
    public static let unknownRoute: Self = "unknown_route"
    /// 422: the route's pattern cannot be turned into a URL, or the built URL does not route back.
    public static let routeNotBuildable: Self = "route_not_buildable"
    /// 422: the route files have errors, so the table in use was kept (`detail.errors`, each with its file, line and
    /// column).
    public static let invalidRouteTable: Self = "invalid_route_table"
    /// 409: the daemon's route table did not come from a directory, so there is nothing to reload it from.
    public static let routesNotReloadable: Self = "routes_not_reloadable"
}
