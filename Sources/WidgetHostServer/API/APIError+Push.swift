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
    /// 409: the channel was closed; its id is not used again (`detail.channel`).
    public static let channelClosed: Self = "channel_closed"
    /// 409: the channel is registered for another attributes type (`detail.channel`, `detail.attributesType`).
    public static let channelTypeMismatch: Self = "channel_type_mismatch"
    /// 404: no channel is registered under this id (`detail.channel`).
    public static let unknownChannel: Self = "unknown_channel"
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

extension APIError {
    /// The API's answer to a refused channel request; nothing was changed.
    public init(_ error: PushChannelError) {
        let message = error.description
        switch error {
        case .closed(let id, let reason):
            self.init(.channelClosed, status: .conflict, message: message,
                      detail: ["channel": .string(id), "reason": .string(reason)])
        case .otherType(let id, let registered):
            self.init(.channelTypeMismatch, status: .conflict, message: message,
                      detail: ["channel": .string(id), "attributesType": .string(registered)])
        case .unknown(let id):
            self.init(.unknownChannel, status: .notFound, message: message, detail: ["channel": .string(id)])
        }
    }
}

/// Runs a registry call, answering its refusals as ``APIError``s.
func mappingPushTokenErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as PushTokenError {
        throw APIError(error)
    } catch let error as PushChannelError {
        throw APIError(error)
    }
}
