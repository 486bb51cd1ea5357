import Foundation
import HTTPServer
import Push
import WidgetHost

/// The device's end of APNs: a Live Activity push, delivered as APNs would deliver it, and the pushes that reached
/// no activity.
///
/// - `POST /v1/device/push?token=<hex>`: the body is the APNs JSON payload exactly as a provider sends it, with
///   APNs's headers `apns-push-type`, `apns-topic`, `apns-priority` and (for a broadcast, instead of `token`)
///   `apns-channel-id` → ``V1/PushDelivery``. A push the device ignores is still 200 (APNs accepted it; the
///   device dropped it), with the reason per activity. What APNs itself refuses is 400 `bad_push` or 413
///   `payload_too_large`, with APNs's reason in `detail.apns_reason`; nothing is recorded.
/// - A widget push (`apns-push-type: widgets`, `{"aps":{"content-changed":true}}`, to the token of
///   `GET /v1/device/widget-push-token`) → ``V1/WidgetPushResult``: the device's placed widgets reloaded, each
///   charged to its budget (`widget-push`), or `ignored` with the reason.
/// - A control push (`apns-push-type: controls`, the same payload, to the same token) → ``V1/ControlPushResult``: every
///   placed control reads its value again (`control_push`), or `ignored` with the reason.
/// - `POST /v1/device/widget-push-token/renew` → the new token: the old one is ignored from now on, the push token
///   registry's widgets slot rotates, and the app's `WidgetPushHandler` is handed the new one.
/// - `GET /v1/device/pushes/unaddressed` → ``V1/ActivityEventList``: pushes to a token or channel no activity has.
enum DevicePushResource: APIResource {
    static func register(in router: inout APIRouter, context: APIContext) {
        let activities = context.engine.activities
        let metrics = context.metrics

        let engine = context.engine
        router.post("/v1/device/push") { request, _ in
            let push = try devicePush(request)
            if push.pushType == "widgets" {
                let delivery = try await mappingActivityErrors { try await engine.receiveWidgetPush(push) }
                return .json(V1.WidgetPushResult(delivery))
            }
            if push.pushType == "controls" {
                let delivery = try await mappingActivityErrors { try await engine.receiveControlPush(push) }
                return .json(V1.ControlPushResult(delivery))
            }
            let delivery = try mappingActivityErrors { try activities.deliver(push) }
            metrics.recordPush(delivery)
            return .json(V1.PushDelivery(delivery))
        }

        router.get("/v1/device/widget-push-token") { _, _ in
            .json(V1.RotatedToken(try await engine.widgetPushToken()))
        }

        router.post("/v1/device/widget-push-token/renew") { _, _ in
            .json(V1.RotatedToken(try await engine.renewWidgetPushToken()))
        }

        router.get("/v1/device/pushes/unaddressed") { _, _ in
            .json(V1.ActivityEventList(try mappingActivityErrors { try activities.unaddressedPushes() }))
        }
    }

    /// The push the request carries. The payload is passed on as its bytes: APNs's size limit counts them, and the
    /// engine parses them as the device would.
    private static func devicePush(_ request: HTTPRequest) throws -> DevicePush {
        var token: Data?
        if let text = request.query("token") {
            guard let bytes = PushTokenText.token(text) else { throw APIError.badDeviceToken(text) }
            token = bytes
        }
        var priority: Int?
        if let text = request.headers["apns-priority"] {
            // APNs takes exactly `5` or `10` (not `05`, not ` 10`); anything else is its BadPriority.
            guard text == "5" || text == "10" else { throw APIError(DevicePushError.badPriority(text)) }
            priority = Int(text)
        }
        return DevicePush(pushType: request.headers["apns-push-type"], topic: request.headers["apns-topic"],
                          priority: priority, channelID: request.headers["apns-channel-id"], deviceToken: token,
                          payload: request.body)
    }
}
