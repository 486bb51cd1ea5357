import HTTPServer
import JSON
import WidgetHost

extension APIError.Code {
    /// 404: no interactive intent with this name (`detail.intent`, `detail.known`).
    public static let unknownIntent: Self = "unknown_intent"
    /// 422: an entity id the parameter's entity query does not return (`detail.parameter`, `detail.entityType`,
    /// `detail.id`).
    public static let unknownEntity: Self = "unknown_entity"
    /// 409: the `Idempotency-Key` was first used for a different request (`detail.key`).
    public static let idempotencyKeyReused: Self = "idempotency_key_reused"
    /// 422: the intent's `perform()` threw; nothing was changed (`detail.reason`).
    public static let intentFailed: Self = "intent_failed"
    /// 503: the transaction the perform ran in could not begin or commit; nothing was changed, retry.
    public static let transactionFailed: Self = "transaction_failed"
    /// 500: the intent wrote to an App Group outside its transaction (a bug in the intent); nothing was changed.
    public static let writeOutsideTransaction: Self = "write_outside_transaction"
    /// 400: a request header is malformed (`detail.header`, `detail.reason`).
    public static let invalidHeader: Self = "invalid_header"
}

extension APIError {
    /// The API's answer to a perform the intent runner refused. Every case changed nothing.
    ///
    /// | intent error | status | code |
    /// |---|---|---|
    /// | `unknownIntent` | 404 | `unknown_intent` |
    /// | `unknownParameter` | 422 | `unknown_parameter` |
    /// | `missingParameter` | 422 | `missing_parameter` |
    /// | `invalidParameter` | 422 | `invalid_parameter` |
    /// | `unknownEntity` | 422 | `unknown_entity` |
    /// | `idempotencyKeyReused` | 409 | `idempotency_key_reused` |
    /// | `performFailed` | 422 | `intent_failed` |
    /// | `transactionFailed` | 503 | `transaction_failed` |
    /// | `writeOutsideTransaction` | 500 | `write_outside_transaction` |
    public init(_ error: IntentError) {
        let message = error.description
        var detail: [String: JSONValue] = ["intent": error.intentName.map(JSONValue.string) ?? .null]
        let code: Code
        let status: HTTPStatus
        switch error {
        case .unknownIntent(_, let known):
            (code, status) = (.unknownIntent, .notFound)
            detail["known"] = .array(known.map(JSONValue.string))
        case .unknownParameter(_, let parameter, let known):
            (code, status) = (.unknownParameter, .unprocessableContent)
            detail["parameter"] = .string(parameter)
            detail["known"] = .array(known.map(JSONValue.string))
        case .missingParameter(_, let parameter):
            (code, status) = (.missingParameter, .unprocessableContent)
            detail["parameter"] = .string(parameter)
        case .invalidParameter(_, let parameter, let problem):
            (code, status) = (.invalidParameter, .unprocessableContent)
            detail["parameter"] = .string(parameter)
            detail["problem"] = .string(problem)
        case .unknownEntity(_, let parameter, let entityType, let id):
            (code, status) = (.unknownEntity, .unprocessableContent)
            detail["parameter"] = .string(parameter)
            detail["entityType"] = .string(entityType)
            detail["id"] = .string(id)
        case .idempotencyKeyReused(_, let key):
            (code, status) = (.idempotencyKeyReused, .conflict)
            detail["key"] = .string(key)
        case .performFailed(_, let reason):
            (code, status) = (.intentFailed, .unprocessableContent)
            detail["reason"] = .string(reason)
        case .transactionFailed(_, let reason):
            (code, status) = (.transactionFailed, .serviceUnavailable)
            detail["reason"] = .string(reason)
        case .writeOutsideTransaction(_, let group):
            (code, status) = (.writeOutsideTransaction, .internalServerError)
            detail["group"] = .string(group)
        }
        self.init(code, status: status, message: message, detail: .object(detail))
    }

    /// 400 `invalid_header` for a request header the endpoint refuses.
    static func invalidHeader(_ name: String, _ reason: String) -> APIError {
        APIError(.invalidHeader, status: .badRequest, message: "invalid header \"\(name)\": \(reason)",
                 detail: ["header": .string(name), "reason": .string(reason)])
    }
}
