import Foundation
import SharedState

/// Delivering the outbox: a sender claims due pushes under a lease, sends them, and records the answers in batches.
///
/// A claimed push stays `pending` with `lease_until` set, so a sender that crashes loses nothing: once the lease
/// ends (or a restarted sender that is the only one on the database calls ``releaseLeases()``), the push is claimed
/// again and resent with the same `apns-id`. Leases and retry times are on the wall clock (`at`), which a crash does
/// not reset; whether a push is due is on the planner's clock (`dueBy`), which may be virtual.
extension PushStore {
    /// Claims up to `limit` pending pushes that are due, not waiting for a retry, and not leased, oldest due first,
    /// leasing them until `at + lease`. In the same transaction, pushes to a token the registry invalidated or APNs
    /// answered 410 for are failed instead of claimed.
    /// - Returns: The claimed pushes.
    public func claimDue(limit: Int, dueBy: Date, at now: Date, lease: Duration) throws -> [OutboxPush] {
        guard let database else {
            return try sharedOutbox?.claimDue(limit: limit, dueBy: dueBy, at: now, lease: lease) ?? []
        }
        let leaseEnd = now.addingTimeInterval(Double(lease.components.seconds))
        // An idle sender looks often: a read snapshot answers "nothing due" without taking the write lock.
        let anyDue = try database.read { db in
            try db.queryOne("""
                SELECT 1 FROM push_outbox
                WHERE status = 'pending' AND due_at <= ? AND (retry_at IS NULL OR retry_at <= ?)
                  AND (lease_until IS NULL OR lease_until <= ?)
                LIMIT 1
                """, [dueBy.sqlValue, now.sqlValue, now.sqlValue]) != nil
        }
        guard anyDue else { return [] }
        return try database.write { db in
            let rows = try db.query("""
                SELECT o.*, COALESCE(t.invalid_reason, u.reason) AS dead_reason
                FROM push_outbox o
                LEFT JOIN push_tokens t ON t.token = o.device_token AND t.invalidated_at IS NOT NULL
                LEFT JOIN push_unregistered_tokens u ON u.token = o.device_token
                WHERE o.status = 'pending' AND o.due_at <= ? AND (o.retry_at IS NULL OR o.retry_at <= ?)
                  AND (o.lease_until IS NULL OR o.lease_until <= ?)
                ORDER BY o.due_at, o.seq LIMIT ?
                """, [dueBy.sqlValue, now.sqlValue, now.sqlValue, .integer(Int64(max(0, limit)))])
            var claimed: [OutboxPush] = []
            claimed.reserveCapacity(rows.count)
            for row in rows {
                let push = try PushOutbox.push(PushSQLRow(sqlite: row))
                if let dead = row.string("dead_reason") {
                    try db.execute("""
                        UPDATE push_outbox SET status = 'failed', last_result = ?, updated_at = ?, finished_at = ?,
                                               lease_until = NULL
                        WHERE apns_id = ?
                        """, [.text(Self.deadTokenResult(dead)), now.sqlValue, now.sqlValue,
                              .text(push.apnsID.uuidString)])
                    continue
                }
                try db.execute("UPDATE push_outbox SET lease_until = ? WHERE apns_id = ?",
                               [leaseEnd.sqlValue, .text(push.apnsID.uuidString)])
                claimed.append(push)
            }
            return claimed
        }
    }

    /// Records a batch of answers in one transaction.
    /// - Parameter now: The wall clock: when the answers were recorded.
    public func record(_ deliveries: [DeliveryAttempt], at now: Date) throws {
        guard !deliveries.isEmpty else { return }
        guard let database else {
            try sharedOutbox?.record(deliveries, at: now)
            return
        }
        try database.write { db in
            for delivery in deliveries {
                let id = Self.text(delivery.apnsID)
                let status = delivery.status.map { SQLValue.integer(Int64($0)) } ?? .null
                switch delivery.outcome {
                case .delivered, .failed:
                    try db.execute("""
                        UPDATE push_outbox SET status = ?, attempts = attempts + 1, last_result = ?, apns_status = ?,
                                               lease_until = NULL, retry_at = NULL, updated_at = ?, finished_at = ?
                        WHERE apns_id = ?
                        """, [.text(delivery.outcome == .delivered ? "delivered" : "failed"), .text(delivery.result),
                              status, now.sqlValue, now.sqlValue, id])
                case .retry(let at, let providerTokenRetry):
                    try db.execute("""
                        UPDATE push_outbox SET attempts = attempts + 1, last_result = ?, apns_status = ?,
                                               lease_until = NULL, retry_at = ?, updated_at = ?,
                                               provider_token_retries = provider_token_retries + ?
                        WHERE apns_id = ? AND status = 'pending'
                        """, [.text(delivery.result), status, at.sqlValue, now.sqlValue,
                              .integer(providerTokenRetry ? 1 : 0), id])
                case .unregistered:
                    try db.execute("""
                        UPDATE push_outbox SET status = 'failed', attempts = attempts + 1, last_result = ?,
                                               apns_status = ?, lease_until = NULL, retry_at = NULL, updated_at = ?,
                                               finished_at = ?
                        WHERE apns_id = ?
                        """, [.text(delivery.result), status, now.sqlValue, now.sqlValue, id])
                    guard let token = try db.scalar("SELECT device_token FROM push_outbox WHERE apns_id = ?", [id],
                                                    as: String.self) else { continue }
                    try PushTokenRegistry.markInvalid(token, reason: delivery.result, at: now, db)
                    try db.execute("""
                        INSERT INTO push_unregistered_tokens(token, reason, at) VALUES (?, ?, ?)
                        ON CONFLICT(token) DO NOTHING
                        """, [.text(token), .text(delivery.result), now.sqlValue])
                    // Pushes to the token still waiting (not those in flight: their own answers come).
                    try db.execute("""
                        UPDATE push_outbox SET status = 'failed', last_result = ?, updated_at = ?, finished_at = ?
                        WHERE device_token = ? AND status = 'pending' AND (lease_until IS NULL OR lease_until <= ?)
                        """, [.text(Self.deadTokenResult(delivery.result)), now.sqlValue, now.sqlValue, .text(token),
                              now.sqlValue])
                }
            }
        }
    }

    /// Ends every lease: what a sender that is the only one on this database does when it starts, so the pushes its
    /// crashed predecessor had in flight are sent again at once rather than when their leases run out.
    /// - Returns: How many pushes were leased.
    @discardableResult
    public func releaseLeases() throws -> Int {
        guard let database else { return try sharedOutbox?.releaseLeases() ?? 0 }
        return try database.write { db in
            try db.execute("UPDATE push_outbox SET lease_until = NULL WHERE status = 'pending' AND lease_until IS NOT NULL")
            return db.changes
        }
    }

    /// Pending pushes: the sender's queue depth.
    public func pendingCount() throws -> Int {
        guard let database else { return try sharedOutbox?.pendingCount() ?? 0 }
        return try database.read { db in
            try db.scalar("SELECT COUNT(*) FROM push_outbox WHERE status = 'pending'", as: Int.self) ?? 0
        }
    }

    static func deadTokenResult(_ reason: String) -> String {
        "TokenInvalidated: the device token was invalidated (\(reason)); the push was not sent"
    }

    private static func text(_ id: UUID) -> SQLValue { .text(id.uuidString) }
}

extension PushTokenRegistry {
    /// Marks the token `hex` invalid inside the caller's transaction, keeping an earlier reason; a token the
    /// registry does not know is left alone (the outbox remembers it on its own).
    static func markInvalid(_ hex: String, reason: String, at date: Date, _ db: Database) throws {
        try db.execute("""
            UPDATE push_tokens SET invalidated_at = ?, invalid_reason = ? WHERE token = ? AND invalidated_at IS NULL
            """, [date.sqlValue, .text(reason), .text(hex)])
    }
}
