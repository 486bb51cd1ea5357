import Foundation
import HTTPServer
import JSON
import Push

extension APIError.Code {
    /// 422: a push that could never be sent (`detail.field`, `detail.reason`): a payload over 4 KB, a bad header.
    public static let invalidPush: Self = "invalid_push"
    /// 409: a push with this `apns-id` is in the outbox already (`detail.apnsId`).
    public static let duplicateAPNsID: Self = "duplicate_apns_id"
    /// 404: no push in the outbox has this `apns-id` (`detail.apnsId`).
    public static let unknownPush: Self = "unknown_push"
}

/// Runs outbox work, answering its refusals as ``APIError``s; nothing was changed.
///
/// | error | status | code |
/// |---|---|---|
/// | `PushOutboxError.invalidPush` | 422 | `invalid_push` |
/// | `PushOutboxError.duplicateAPNsID` | 409 | `duplicate_apns_id` |
/// | `PushOutboxError.deadToken` | 409 | `token_invalidated` |
/// | `PushOutboxError.unknownPush` | 404 | `unknown_push` |
func mappingOutboxErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as PushOutboxError {
        let message = error.description
        switch error {
        case .invalidPush(let field, let reason):
            throw APIError(.invalidPush, status: .unprocessableContent, message: message,
                           detail: ["field": .string(field), "reason": .string(reason)])
        case .duplicateAPNsID(let id):
            throw APIError(.duplicateAPNsID, status: .conflict, message: message,
                           detail: ["apnsId": .string(id.uuidString)])
        case .deadToken(let token, let reason):
            throw APIError(.tokenInvalidated, status: .conflict, message: message,
                           detail: ["token": .string(token), "reason": .string(reason)])
        case .unknownPush(let id):
            throw APIError(.unknownPush, status: .notFound, message: message, detail: ["apnsId": .string(id.uuidString)])
        }
    }
}
