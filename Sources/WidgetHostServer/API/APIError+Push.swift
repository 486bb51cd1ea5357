import Foundation
import HTTPServer
import JSON
import Push

extension APIError.Code {
    /// 409: the token was marked invalid and is never used again, so it cannot be registered again
    /// (`detail.token`, `detail.reason`).
    public static let tokenInvalidated: Self = "token_invalidated"
    /// 409: the token is registered in another slot (`detail.token`, `detail.slot`).
    public static let tokenRegisteredElsewhere: Self = "token_registered_elsewhere"
    /// 404: no registration has this token (`detail.token`).
    public static let unknownPushToken: Self = "unknown_push_token"
    /// 422: a device, attributes type, activity id or widget kind that is empty, over 256 bytes or holds control
    /// characters (`detail.field`).
    public static let invalidIdentifier: Self = "invalid_identifier"
}

extension APIError {
    /// The API's answer to a refused token registry request; nothing was changed.
    ///
    /// | error | status | code |
    /// |---|---|---|
    /// | `invalidated` | 409 | `token_invalidated` |
    /// | `registeredElsewhere` | 409 | `token_registered_elsewhere` |
    /// | `unknownToken` | 404 | `unknown_push_token` |
    /// | `invalidIdentifier` | 422 | `invalid_identifier` |
    public init(_ error: PushTokenError) {
        let message = error.description
        switch error {
        case .invalidated(let token, let reason):
            self.init(.tokenInvalidated, status: .conflict, message: message,
                      detail: ["token": .string(token), "reason": .string(reason)])
        case .registeredElsewhere(let token, let slot):
            self.init(.tokenRegisteredElsewhere, status: .conflict, message: message,
                      detail: ["token": .string(token), "slot": .string(slot)])
        case .unknownToken(let token):
            self.init(.unknownPushToken, status: .notFound, message: message, detail: ["token": .string(token)])
        case .invalidIdentifier(let field, let value):
            self.init(.invalidIdentifier, status: .unprocessableContent, message: message,
                      detail: ["field": .string(field), "value": .string(value)])
        }
    }
}

/// Runs a registry call, answering its refusals as ``APIError``s.
func mappingPushTokenErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as PushTokenError {
        throw APIError(error)
    }
}
