import Foundation
import PostgresStore

/// The outbox on PostgreSQL, drained by several senders at once (`--push-store postgres://…`, Docs/postgres.md).
///
/// The same rows and promises as the SQLite outbox (``PushDeliveryQueue``). A claim is one transaction that picks
/// due pushes with `SELECT … FOR UPDATE SKIP LOCKED` and leases them (`lease_until`): a second sender claiming at
/// the same moment skips the rows the first has locked instead of waiting for them, and once the first commits it
/// finds them leased. So no push is handed to two senders while its lease runs, and the claims of a sender that died
/// go to the others when their leases end.
///
/// Dead tokens (APNs answered 410) are kept in the outbox's own `push_unregistered_tokens`. When the token registry
/// lives in the same database (a ``PushStore`` on PostgreSQL), a 410 also marks the token invalid there, and a token
/// the registry invalidated is dead to the outbox too, as on SQLite.
public final class PostgresPushOutbox: PushDeliveryQueue {
    /// The database the outbox lives in.
    public let pool: PostgresPool
    /// Whether the token registry's `push_tokens` is in the same database (kept in step with the outbox's dead tokens).
    let hasRegistry: Bool

    /// Opens the outbox in a PostgreSQL database, creating or updating its tables.
    /// - Throws: ``PostgresError`` (`.unavailable` when the server cannot be reached).
    public convenience init(pool: PostgresPool) throws {
        try self.init(pool: pool, hasRegistry: false)
    }

    /// Opens the outbox beside the token registry (whose tables must exist) when `hasRegistry`.
    init(pool: PostgresPool, hasRegistry: Bool) throws {
        self.pool = pool
        self.hasRegistry = hasRegistry
        try Self.migrator.migrate(pool)
    }

    public func enqueue(contentsOf pushes: [OutboxPush]) throws {
        for push in pushes { try PushOutbox.validate(push) }
        try pool.transaction { db in
            for push in pushes {
                if let token = push.deviceToken.map(PushTokenText.hex),
                   let reason = try Self.deadTokenReason(token, registry: hasRegistry, db) {
                    throw PushOutboxError.deadToken(token: token, reason: reason)
                }
                // ON CONFLICT keeps a duplicate from aborting the transaction, so the error is ours, not a 23505.
                let inserted = try db.execute(Self.insertSQL, Self.insertParameters(push))
                guard inserted == 1 else { throw PushOutboxError.duplicateAPNsID(push.apnsID) }
            }
        }
    }

    public func claimDue(limit: Int, dueBy: Date, at now: Date, lease: Duration) throws -> [OutboxPush] {
        let leaseEnd = now.addingTimeInterval(Double(lease.components.seconds))
        return try pool.transaction { db in
            let rows = try db.query("""
                SELECT \(Self.columns), \(hasRegistry ? "COALESCE(t.invalid_reason, u.reason)" : "u.reason") AS dead_reason
                FROM push_outbox o LEFT JOIN push_unregistered_tokens u ON u.token = o.device_token
                \(hasRegistry ? Self.registryJoin : "")
                WHERE o.status = 'pending' AND o.due_at <= $1 AND (o.retry_at IS NULL OR o.retry_at <= $2)
                  AND (o.lease_until IS NULL OR o.lease_until <= $2)
                ORDER BY o.due_at, o.seq LIMIT $3
                FOR UPDATE OF o SKIP LOCKED
                """, [.seconds(dueBy), .seconds(now), .integer(Int64(max(0, limit)))])
            var claimed: [OutboxPush] = []
            var leased: [String] = []
            claimed.reserveCapacity(rows.count)
            for row in rows {
                let push = try Self.push(row)
                if let dead = row.string("dead_reason") {
                    try db.execute("""
                        UPDATE push_outbox SET status = 'failed', last_result = $1, updated_at = $2, finished_at = $2,
                                               lease_until = NULL
                        WHERE apns_id = $3
                        """, [.text(PushStore.deadTokenResult(dead)), .seconds(now), .text(push.apnsID.uuidString)])
                    continue
                }
                leased.append(push.apnsID.uuidString)
                claimed.append(push)
            }
            if !leased.isEmpty {
                try db.execute("UPDATE push_outbox SET lease_until = $1 WHERE apns_id = ANY($2::text[])",
                               [.seconds(leaseEnd), .text(Self.arrayLiteral(leased))])
            }
            return claimed
        }
    }

    public func record(_ deliveries: [DeliveryAttempt], at now: Date) throws {
        guard !deliveries.isEmpty else { return }
        // One order for the rows every batch locks, so two senders recording at once cannot deadlock on them.
        let sorted = deliveries.sorted { $0.apnsID.uuidString < $1.apnsID.uuidString }
        try pool.transaction { db in
            for delivery in sorted {
                let id = PostgresValue.text(delivery.apnsID.uuidString)
                let status = delivery.status.map { PostgresValue.integer(Int64($0)) } ?? .null
                switch delivery.outcome {
                case .delivered, .failed:
                    try db.execute("""
                        UPDATE push_outbox SET status = $1, attempts = attempts + 1, last_result = $2, apns_status = $3,
                                               lease_until = NULL, retry_at = NULL, updated_at = $4, finished_at = $4
                        WHERE apns_id = $5
                        """, [.text(delivery.outcome == .delivered ? "delivered" : "failed"), .text(delivery.result),
                              status, .seconds(now), id])
                case .retry(let at, let providerTokenRetry):
                    try db.execute("""
                        UPDATE push_outbox SET attempts = attempts + 1, last_result = $1, apns_status = $2,
                                               lease_until = NULL, retry_at = $3, updated_at = $4,
                                               provider_token_retries = provider_token_retries + $5
                        WHERE apns_id = $6 AND status = 'pending'
                        """, [.text(delivery.result), status, .seconds(at), .seconds(now),
                              .integer(providerTokenRetry ? 1 : 0), id])
                case .unregistered:
                    try recordUnregistered(delivery, status: status, at: now, db)
                }
            }
        }
    }

    private func recordUnregistered(_ delivery: DeliveryAttempt, status: PostgresValue, at now: Date,
                                    _ db: PostgresConnection) throws {
        let id = PostgresValue.text(delivery.apnsID.uuidString)
        guard let token = try db.queryOne("""
            UPDATE push_outbox SET status = 'failed', attempts = attempts + 1, last_result = $1, apns_status = $2,
                                   lease_until = NULL, retry_at = NULL, updated_at = $3, finished_at = $3
            WHERE apns_id = $4 RETURNING device_token
            """, [.text(delivery.result), status, .seconds(now), id])?.string("device_token") else { return }
        try db.execute("""
            INSERT INTO push_unregistered_tokens(token, reason, at) VALUES ($1, $2, $3) ON CONFLICT (token) DO NOTHING
            """, [.text(token), .text(delivery.result), .seconds(now)])
        if hasRegistry {
            // The registry's record of the token, keeping an earlier reason, as SQLite's store does.
            try db.execute("""
                UPDATE push_tokens SET invalidated_at = $1, invalid_reason = $2 WHERE token = $3 AND invalidated_at IS NULL
                """, [.seconds(now), .text(delivery.result), .text(token)])
        }
        // Pushes to the token still waiting (not those in flight: their own answers come).
        try db.execute("""
            UPDATE push_outbox SET status = 'failed', last_result = $1, updated_at = $2, finished_at = $2
            WHERE device_token = $3 AND status = 'pending' AND (lease_until IS NULL OR lease_until <= $2)
            """, [.text(PushStore.deadTokenResult(delivery.result)), .seconds(now), .text(token)])
    }

    @discardableResult
    public func releaseLeases() throws -> Int {
        try pool.withConnection { db in
            try db.execute("UPDATE push_outbox SET lease_until = NULL WHERE status = 'pending' AND lease_until IS NOT NULL")
        }
    }

    public func pendingCount() throws -> Int {
        try pool.withConnection { db in
            try db.queryOne("SELECT count(*) AS n FROM push_outbox WHERE status = 'pending'")?.int("n") ?? 0
        }
    }

    public func push(apnsID: UUID) throws -> OutboxPush? {
        try pool.withConnection { db in
            try db.queryOne("SELECT \(Self.columns) FROM push_outbox o WHERE apns_id = $1",
                            [.text(apnsID.uuidString)]).map(Self.push)
        }
    }

    /// Pushes in `status` (all when nil), in the order they were queued.
    public func pushes(status: OutboxPush.Status? = nil, limit: Int = 1000) throws -> [OutboxPush] {
        try pool.withConnection { db in
            try db.query("""
                SELECT \(Self.columns) FROM push_outbox o WHERE $1::text IS NULL OR status = $1 ORDER BY seq LIMIT $2
                """, [.text(orNull: status?.rawValue), .integer(Int64(max(0, limit)))]).map(Self.push)
        }
    }

    public func deadTokenReason(_ token: Data) throws -> String? {
        try pool.withConnection { db in try Self.deadTokenReason(PushTokenText.hex(token), registry: hasRegistry, db) }
    }

    /// Why the token `hex` gets no push: APNs answered 410 for it, or (with the registry beside) it was invalidated.
    static func deadTokenReason(_ hex: String, registry: Bool, _ db: PostgresConnection) throws -> String? {
        if let reason = try db.queryOne("SELECT reason FROM push_unregistered_tokens WHERE token = $1",
                                        [.text(hex)])?.string("reason") {
            return reason
        }
        guard registry else { return nil }
        return try db.queryOne("""
            SELECT COALESCE(invalid_reason, 'invalidated') AS reason FROM push_tokens
            WHERE token = $1 AND invalidated_at IS NOT NULL
            """, [.text(hex)])?.string("reason")
    }

    /// The registry's invalidated tokens, joined to a claim's pushes.
    private static let registryJoin =
        "LEFT JOIN push_tokens t ON t.token = o.device_token AND t.invalidated_at IS NOT NULL"

    /// A PostgreSQL array literal of UUID texts (which hold no quote, comma or brace).
    private static func arrayLiteral(_ items: [String]) -> String { "{" + items.joined(separator: ",") + "}" }
}
