import Foundation
import HTTPServer
import JSON
import Push

extension V1 {
    /// `POST /v1/push/outbox` body: a push of the caller's own, queued for the APNs sender.
    package struct SendPushRequest: Decodable {
        /// The device token, hex.
        var deviceToken: String
        /// `liveactivity` (default) or `widgets`.
        var pushType: String?
        /// The payload: a JSON object of at most 4,096 bytes as written.
        var payload: JSONValue
        /// `apns-priority`: 5 or 10 (default 10).
        var priority: Int?
        /// `apns-expiration`, seconds since 1970 (0: one attempt, no storage).
        var expiration: Int64?
        /// `apns-collapse-id`.
        var collapseId: String?
        /// The `apns-id` to use (a new UUID when absent).
        var apnsId: String?
        /// The activity the push concerns, for the outbox's filters.
        var activityId: String?

        /// The push, checked field by field (400 `invalid_field` naming the field).
        func push(bundleIdentifier: String, now: Date) throws -> Push.OutboxPush {
            guard let token = PushTokenText.token(deviceToken) else {
                throw APIError.invalidField("deviceToken", "expected hex digits, two per byte, at most 200 bytes")
            }
            guard let type = PushHeaders.PushType(rawValue: pushType ?? "liveactivity") else {
                throw APIError.invalidField("pushType", "expected liveactivity or widgets")
            }
            guard case .object = payload else { throw APIError.invalidField("payload", "expected a JSON object") }
            let level: PushHeaders.Priority?
            if let priority {
                guard let parsed = PushHeaders.Priority(rawValue: priority) else {
                    throw APIError.invalidField("priority", "expected 5 or 10")
                }
                level = parsed
            } else {
                level = nil
            }
            var expirationDate: Date?
            if let expiration {
                guard (0...253_402_300_799).contains(expiration) else {
                    throw APIError.invalidField("expiration", "expected seconds since 1970, 0 to 253402300799")
                }
                expirationDate = Date(timeIntervalSince1970: TimeInterval(expiration))
            }
            var id = UUID()
            if let apnsId {
                guard let parsed = UUID(uuidString: apnsId) else {
                    throw APIError.invalidField("apnsId", "expected a UUID (8-4-4-4-12 hex digits)")
                }
                id = parsed
            }
            if let activityId { try mappingPushTokenErrors { try PushTokenRegistry.check("activity id", activityId) } }
            let headers = PushHeaders(pushType: type, bundleIdentifier: bundleIdentifier, priority: level,
                                      expiration: expirationDate)
            return Push.OutboxPush(apnsID: id, activityID: activityId ?? "", deviceToken: token, headers: headers,
                                   payload: Data(payload.canonicalText.utf8), collapseID: collapseId, createdAt: now,
                                   dueAt: now)
        }
    }
}
