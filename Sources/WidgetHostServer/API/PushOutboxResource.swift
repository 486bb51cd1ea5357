import Foundation
import HTTPServer
import Push

/// Pushes of the caller's own, and each push's fate: what a host service that builds its payloads itself posts, and
/// what it reads back once the APNs sender (`widgethost serve --apns-…`) has an answer.
///
/// - `POST /v1/push/outbox` ``V1/SendPushRequest`` → 202 ``V1/OutboxPush``: queued (durably: acknowledged pushes are
///   sent at least once, with their `apns-id`); 400 `invalid_field`, 422 `invalid_push` (a payload over 4 KB, a
///   collapse id over 64 bytes), 409 `duplicate_apns_id` / `token_invalidated`
/// - `GET /v1/push/outbox/{apnsId}` → ``V1/OutboxPush``: pending (with the next attempt's time after a retryable
///   answer), delivered, or failed with APNs's reason; 404 `unknown_push` (also for a text that is not a UUID)
///
/// Without an APNs sender the pushes wait in the outbox (or go to the engine's device through
/// `POST /v1/push/outbox/deliver`).
enum PushOutboxResource: APIResource {
    static func register(in router: inout APIRouter, context: APIContext) {
        let store = context.push
        let clock = context.engine.clock
        let sender = context.apns

        router.post("/v1/push/outbox") { request, _ in
            let body = try request.decode(V1.SendPushRequest.self)
            let push = try body.push(bundleIdentifier: store.planner.bundleIdentifier, now: clock.now)
            try mappingOutboxErrors { try store.outbox.enqueue(push) }
            sender?.wake()
            guard let queued = try store.outbox.push(apnsID: push.apnsID) else {
                throw APIError(.internal, status: .internalServerError, message: "a queued push vanished")
            }
            return .json(V1.OutboxPush(queued), status: .accepted)
        }

        router.get("/v1/push/outbox/{apnsId}") { _, parameters in
            let text = try parameters.require("apnsId")
            guard let id = UUID(uuidString: text), let push = try store.outbox.push(apnsID: id) else {
                throw APIError(.unknownPush, status: .notFound, message: "no push in the outbox has the apns-id \(text)",
                               detail: ["apnsId": .string(text)])
            }
            return .json(V1.OutboxPush(push))
        }
    }
}
