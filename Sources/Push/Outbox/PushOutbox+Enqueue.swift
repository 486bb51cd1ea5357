import Foundation
import JSON
import SharedState

/// A caller's own push, queued for the sender next to the planner's.
extension PushOutbox {
    /// The most payload bytes APNs takes for a Live Activity or widget push.
    public static let maximumPayloadBytes = 4096

    /// Queues `push` (its `status` is ignored: it starts pending), acknowledged once this returns: from then on it is
    /// sent at least once with its `apns-id`, and its fate is recorded.
    /// - Throws: ``PushOutboxError`` when the push could never be sent (no token, a payload that is not a JSON
    ///   object or is over 4 KB, bad headers, a collapse id over 64 bytes, a token found dead), or its `apns-id` is
    ///   taken. Nothing is queued then.
    public func enqueue(_ push: OutboxPush) throws {
        try enqueue(contentsOf: [push])
    }

    /// Queues `pushes` in one transaction: all of them, or (when one is refused) none.
    /// - Throws: What ``enqueue(_:)`` throws, for the first push refused.
    public func enqueue(contentsOf pushes: [OutboxPush]) throws {
        for push in pushes { try Self.validate(push) }
        try database.write { db in
            for push in pushes {
                var queued = push
                queued.status = .pending
                if let token = push.deviceToken.map(PushTokenText.hex) {
                    if let reason = try Self.deadTokenReason(token, db) {
                        throw PushOutboxError.deadToken(token: token, reason: reason)
                    }
                }
                // ON CONFLICT keeps a duplicate queued by another daemon at the same moment from aborting the
                // transaction (a PostgreSQL 23505), so the error is ours.
                guard try Self.insert(queued, db) == 1 else { throw PushOutboxError.duplicateAPNsID(push.apnsID) }
            }
        }
    }

    static func validate(_ push: OutboxPush) throws {
        do {
            _ = try push.headers.fields()
        } catch {
            throw PushOutboxError.invalidPush(field: error.field, reason: error.reason)
        }
        if push.headers.channelID == nil, push.deviceToken?.isEmpty ?? true {
            throw PushOutboxError.invalidPush(field: "deviceToken", reason: "a device push needs a device token")
        }
        guard !push.payload.isEmpty else { throw PushOutboxError.invalidPush(field: "payload", reason: "is empty") }
        guard push.payload.count <= maximumPayloadBytes else {
            throw PushOutboxError.invalidPush(
                field: "payload", reason: "is \(push.payload.count) bytes; APNs takes at most \(maximumPayloadBytes)")
        }
        guard case .object? = try? JSONValue(parsing: push.payload) else {
            throw PushOutboxError.invalidPush(field: "payload", reason: "is not a JSON object")
        }
        if let collapseID = push.collapseID {
            guard !collapseID.isEmpty, collapseID.utf8.count <= 64,
                  !collapseID.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw PushOutboxError.invalidPush(field: "apns-collapse-id",
                                                  reason: "must be 1 to 64 bytes without control characters")
            }
        }
    }

    /// Why `token` must not be used, if APNs answered 410 for it or the registry invalidated it.
    static func deadTokenReason(_ token: String, _ db: PushSQLConnection) throws -> String? {
        if let reason = try db.queryOne("SELECT reason FROM push_unregistered_tokens WHERE token = ?",
                                        [.text(token)])?.string("reason") {
            return reason
        }
        guard try db.hasTable("push_tokens") else { return nil }
        return try db.queryOne("""
            SELECT COALESCE(invalid_reason, 'invalidated') AS reason FROM push_tokens
            WHERE token = ? AND invalidated_at IS NOT NULL
            """, [.text(token)])?.string("reason")
    }
}
