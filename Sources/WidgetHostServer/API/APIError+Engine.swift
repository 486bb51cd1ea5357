import DeepLinks
import Foundation
import HTTPServer
import JSON
import PostgresStore
import WidgetHost

extension APIError {
    /// The API's answer to an error the engine threw.
    ///
    /// | engine error | status | code |
    /// |---|---|---|
    /// | `unknownKind` | 404 | `unknown_kind` |
    /// | `unknownInstance` | 404 | `unknown_instance` |
    /// | `duplicateInstance` | 409 | `duplicate_instance` |
    /// | `unknownFamily` | 400 | `unknown_family` |
    /// | `unsupportedFamily` | 422 | `unsupported_family` |
    /// | `invalidParameter` | 422 | `invalid_parameter` |
    /// | `unknownParameter` | 422 | `unknown_parameter` |
    /// | `missingParameter` | 422 | `missing_parameter` |
    /// | `parameterHasNoOptions` | 422 | `parameter_has_no_options` |
    /// | `timelineRejected` | 409 | `timeline_unavailable` |
    /// | `corruptRow` | 500 | `internal` |
    public init(_ error: EngineError) {
        let message = error.description
        switch error {
        case .unknownKind(let kind):
            self.init(.unknownKind, status: .notFound, message: message, detail: ["kind": .string(kind)])
        case .unknownInstance(let id):
            self.init(.unknownInstance, status: .notFound, message: message, detail: ["instance": .string(id)])
        case .duplicateInstance(let id):
            self.init(.duplicateInstance, status: .conflict, message: message, detail: ["instance": .string(id)])
        case .unknownFamily(let family):
            self.init(.unknownFamily, status: .badRequest, message: message, detail: ["family": .string(family)])
        case .unsupportedFamily(let kind, let family, let supported):
            self.init(.unsupportedFamily, status: .unprocessableContent, message: message, detail: [
                "kind": .string(kind), "family": .string(family), "supported": .array(supported.map(JSONValue.string)),
            ])
        case .invalidParameter(let kind, let parameter, let problem):
            self.init(.invalidParameter, status: .unprocessableContent, message: message, detail: [
                "kind": .string(kind), "parameter": .string(parameter), "problem": .string(problem),
            ])
        case .unknownParameter(let kind, let parameter, let known):
            self.init(.unknownParameter, status: .unprocessableContent, message: message, detail: [
                "kind": .string(kind), "parameter": .string(parameter), "known": .array(known.map(JSONValue.string)),
            ])
        case .missingParameter(let kind, let parameter):
            self.init(.missingParameter, status: .unprocessableContent, message: message,
                      detail: ["kind": .string(kind), "parameter": .string(parameter)])
        case .parameterHasNoOptions(let kind, let parameter):
            self.init(.parameterHasNoOptions, status: .unprocessableContent, message: message,
                      detail: ["kind": .string(kind), "parameter": .string(parameter)])
        case .timelineRejected(let kind, let reason):
            self.init(.timelineUnavailable, status: .conflict, message: message,
                      detail: ["kind": .string(kind), "reason": .string(reason)])
        case .corruptRow:
            self.init(.internal, status: .internalServerError, message: "internal error",
                      detail: ["error": .string(message)])
        }
    }

    /// The API's answer to a refused clock operation: 409 `clock_not_virtual`, or 400 `invalid_field` for a
    /// negative interval.
    public init(_ error: ClockError) {
        switch error {
        case .notVirtual:
            self.init(.clockNotVirtual, status: .conflict, message: error.description,
                      detail: ["mode": "system"])
        case .negativeInterval(let seconds):
            self.init(.invalidField, status: .badRequest, message: error.description,
                      detail: ["field": "seconds", "reason": .string("must not be negative, got \(seconds)")])
        }
    }

    /// The API's answer to a URL that could not be built: 404 `unknown_route`, or 422 `missing_parameter`,
    /// `unknown_parameter`, `invalid_parameter` (a path value the route's group does not take, or a query value its
    /// query rule does not take: `parameter`, `value` and `pattern` either way) or `route_not_buildable`.
    public init(_ error: URLBuildError) {
        let message = error.description
        switch error {
        case .unknownRoute(let name):
            self.init(.unknownRoute, status: .notFound, message: message, detail: ["route": .string(name)])
        case .missingParameter(let name):
            self.init(.missingParameter, status: .unprocessableContent, message: message,
                      detail: ["parameter": .string(name)])
        case .unknownParameter(let name):
            self.init(.unknownParameter, status: .unprocessableContent, message: message,
                      detail: ["parameter": .string(name)])
        case .notReversible(let route):
            self.init(.routeNotBuildable, status: .unprocessableContent, message: message,
                      detail: ["route": .string(route)])
        case .valueRefused(let parameter, let value, let pattern), .queryValueRefused(let parameter, let value, let pattern):
            self.init(.invalidParameter, status: .unprocessableContent, message: message,
                      detail: ["parameter": .string(parameter), "value": .string(value), "pattern": .string(pattern)])
        case .doesNotRouteBack(let url, let reason):
            self.init(.routeNotBuildable, status: .unprocessableContent, message: message,
                      detail: ["url": .string(url), "reason": .string(reason)])
        }
    }

    /// 422 `invalid_url` for a URL without a canonical form.
    static func invalidURL(_ failure: CanonicalizationFailure) -> APIError {
        APIError(.invalidURL, status: .unprocessableContent, message: "invalid URL: \(failure)",
                 detail: ["reason": .string(failure.description)])
    }

    /// 400 `invalid_field` for a body member whose value the endpoint refuses after decoding.
    static func invalidField(_ field: String, _ reason: String) -> APIError {
        APIError(.invalidField, status: .badRequest, message: "invalid field \"\(field)\": \(reason)",
                 detail: ["field": .string(field), "reason": .string(reason)])
    }

    /// 400 `invalid_query` for a query parameter the endpoint refuses.
    static func invalidQuery(_ parameter: String, _ reason: String) -> APIError {
        APIError(.invalidQuery, status: .badRequest, message: "invalid query parameter \"\(parameter)\": \(reason)",
                 detail: ["parameter": .string(parameter), "reason": .string(reason)])
    }
}

/// Runs `body`, turning engine, clock, intent, stack and tap errors into ``APIError``s; anything else propagates
/// (a 500).
func mappingEngineErrors<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        throw engineErrorAsAPIError(error)
    }
}

/// Runs synchronous engine work (such as ``WidgetEngine/shownEntry(instanceID:at:)`` or the tap store), turning
/// errors into ``APIError``s as the `async` form does.
func mappingEngineErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw engineErrorAsAPIError(error)
    }
}

/// The ``APIError`` for an engine, clock, intent, stack or tap error; any other error unchanged.
private func engineErrorAsAPIError(_ error: any Error) -> any Error {
    switch error {
    case let error as EngineError: APIError(error)
    case let error as ClockError: APIError(error)
    case let error as IntentError: APIError(error)
    case let error as SmartStackError: APIError(error)
    case let error as TapError: APIError(error)
    case let error as PostgresError where error.isUnavailable: APIError.storeUnavailable(error)
    default: error
    }
}

/// Runs `body` for a request whose body names instances: an instance that does not exist is 422
/// `unknown_instance`, not 404, since the resource the path names does exist (404 stays for instance paths).
func namingInstancesInBody<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await mappingEngineErrors(body)
    } catch var error as APIError where error.code == .unknownInstance {
        error.status = .unprocessableContent
        throw error
    }
}
