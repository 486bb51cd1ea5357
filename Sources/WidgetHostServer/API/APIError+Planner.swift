import Foundation
import HTTPServer
import JSON
import Push

extension APIError.Code {
    /// 409: the activity was first submitted with another attributes type (`detail.registered`, `detail.submitted`).
    public static let attributesTypeMismatch: Self = "attributes_type_mismatch"
    /// 422: the push cannot be built from the state (too large for APNs, say) (`detail.reason`).
    public static let unbuildablePush: Self = "unbuildable_push"
    /// 422: a planner policy that cannot work (`detail.field`, `detail.reason`).
    public static let invalidPolicy: Self = "invalid_policy"
}

/// Runs planner work, answering its refusals as ``APIError``s; nothing was changed.
///
/// | error | status | code |
/// |---|---|---|
/// | `PushPlannerError.stateNotObject` | 400 | `invalid_field` |
/// | `PushPlannerError.attributesTypeMismatch` | 409 | `attributes_type_mismatch` |
/// | `PushPlannerError.invalidIdentifier` | 422 | `invalid_identifier` |
/// | `PushPlannerError.unbuildable` | 422 | `unbuildable_push` |
/// | `PlannerPolicyProblem` | 422 | `invalid_policy` |
func mappingPlannerErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as PushPlannerError {
        let message = error.description
        switch error {
        case .stateNotObject: throw APIError.invalidField("state", "expected a JSON object")
        case .attributesTypeMismatch(_, let registered, let submitted):
            throw APIError(.attributesTypeMismatch, status: .conflict, message: message,
                           detail: ["registered": .string(registered), "submitted": .string(submitted)])
        case .invalidIdentifier(let field, let value):
            throw APIError(.invalidIdentifier, status: .unprocessableContent, message: message,
                           detail: ["field": .string(field), "value": .string(value)])
        case .unbuildable(let reason):
            throw APIError(.unbuildablePush, status: .unprocessableContent, message: message,
                           detail: ["reason": .string(reason)])
        }
    } catch let problem as PlannerPolicyProblem {
        throw APIError(.invalidPolicy, status: .unprocessableContent, message: "invalid policy: \(problem)",
                       detail: ["field": .string(problem.field), "reason": .string(problem.reason)])
    }
}
