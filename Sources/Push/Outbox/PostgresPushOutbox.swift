import Foundation
import PostgresStore

/// The outbox on PostgreSQL, drained by several senders at once (`--push-store postgres://…`, Docs/postgres.md).
///
/// The same rows and promises as the SQLite outbox (``PushDeliveryQueue``). A claim is one statement that picks due
/// pushes with `SELECT … FOR UPDATE SKIP LOCKED` and leases them (`lease_until`): a second sender claiming at the
/// same moment skips the rows the first has locked instead of waiting for them, and once the first commits it finds
/// them leased. So no push is handed to two senders while its lease runs, and the claims of a sender that died go to
/// the others when their leases end.
///
/// A batch costs the same round trips whatever its size: queueing it, claiming, and recording its answers are each
/// one set-based statement over array parameters (`unnest`, `PostgresPushOutbox+Batch.swift`), plus three for a
/// batch of answers holding a 410.
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
        guard !pushes.isEmpty else { return }
        for push in pushes { try PushOutbox.validate(push) }
        // One statement inserts every push, or none when a token is dead or an `apns-id` is taken (the unique
        // violation aborts it and the transaction rolls back). Only then does the push-by-push path run, to name
        // the first push refused, as it always did.
        do {
            let dead = try pool.transaction { db in
                try db.queryOne(Self.enqueueSQL(registry: hasRegistry), Self.enqueueParameters(pushes))?.int("dead")
            }
            if dead == 0 { return }
        } catch let error as PostgresError where error.isUniqueViolation {
            // Refused whole: the push-by-push path below names the duplicate.
        }
        try enqueueOneByOne(pushes)
    }

    /// Queues `pushes` one statement at a time in one transaction, throwing for the first refused.
    private func enqueueOneByOne(_ pushes: [OutboxPush]) throws {
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
        // One statement picks and leases the pushes. Pushes to a dead token are failed in a second one, only when
        // there are any.
        return try pool.transaction { db in
            let rows = try db.query(Self.claimSQL(registry: hasRegistry),
                                    [.seconds(dueBy), .seconds(now), .integer(Int64(max(0, limit))), .seconds(leaseEnd)])
            var claimed: [OutboxPush] = []
            var dead: [(id: String, result: String)] = []
            claimed.reserveCapacity(rows.count)
            for row in rows {
                let push = try Self.push(row)
                if let reason = row.string("dead_reason") {
                    dead.append((push.apnsID.uuidString, PushStore.deadTokenResult(reason)))
                } else {
                    claimed.append(push)
                }
            }
            if !dead.isEmpty {
                try db.execute(Self.failDeadSQL, [.textArray(dead.map(\.id)), .textArray(dead.map(\.result)),
                                                  .seconds(now)])
            }
            return claimed
        }
    }

    public func record(_ deliveries: [DeliveryAttempt], at now: Date) throws {
        guard !deliveries.isEmpty else { return }
        let answers = Self.answerParameters(deliveries, at: now)
        let anyUnregistered = deliveries.contains { $0.outcome == .unregistered }
        try pool.transaction { db in
            guard anyUnregistered else {
                try db.execute(Self.recordSQL, answers)
                return
            }
            let answered = try db.query(Self.recordSQL + " RETURNING o.apns_id, o.device_token, a.outcome, a.result",
                                        answers)
            try recordUnregistered(Self.deadTokens(answered), at: now, db)
        }
    }

    /// What a 410 does beyond failing its push, for every token answered 410 in a batch: the token is remembered as
    /// dead (keeping an earlier reason), invalidated in the registry beside, and its pending pushes not in flight fail.
    private func recordUnregistered(_ tokens: [(token: String, reason: String)], at now: Date,
                                    _ db: PostgresConnection) throws {
        guard !tokens.isEmpty else { return }
        let hexes = PostgresValue.textArray(tokens.map(\.token))
        let reasons = PostgresValue.textArray(tokens.map(\.reason))
        try db.execute("""
            INSERT INTO push_unregistered_tokens(token, reason, at) SELECT d.token, d.reason, $3
            FROM unnest($1::text[], $2::text[]) AS d(token, reason) ON CONFLICT (token) DO NOTHING
            """, [hexes, reasons, .seconds(now)])
        if hasRegistry {
            // The registry's record of the token, keeping an earlier reason, as SQLite's store does.
            try db.execute("""
                UPDATE push_tokens t SET invalidated_at = $3, invalid_reason = d.reason
                FROM unnest($1::text[], $2::text[]) AS d(token, reason)
                WHERE t.token = d.token AND t.invalidated_at IS NULL
                """, [hexes, reasons, .seconds(now)])
        }
        // Pushes to the tokens still waiting (not those in flight: their own answers come).
        try db.execute("""
            UPDATE push_outbox o SET status = 'failed', last_result = d.result, updated_at = $3, finished_at = $3
            FROM unnest($1::text[], $2::text[]) AS d(token, result)
            WHERE o.device_token = d.token AND o.status = 'pending' AND (o.lease_until IS NULL OR o.lease_until <= $3)
            """, [hexes, .textArray(tokens.map { PushStore.deadTokenResult($0.reason) }), .seconds(now)])
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

}
