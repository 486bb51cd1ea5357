import Foundation
import PostgresStore

/// The outbox's set-based statements: a whole batch of pushes or answers goes as array parameters (`unnest`) in one
/// statement, so a batch costs the same few round trips whatever its size.
extension PostgresPushOutbox {
    // MARK: Enqueue

    /// Inserts a batch in `seq` order unless one of its tokens is dead; answers with how many tokens were (0 when
    /// the batch was inserted). A taken `apns-id` aborts it with a unique violation.
    static func enqueueSQL(registry: Bool) -> String {
        let registryDead = registry ? """
            UNION ALL SELECT 1 FROM push_tokens t
            WHERE t.token IN (SELECT device_token FROM push) AND t.invalidated_at IS NOT NULL
            """ : ""
        return """
            WITH push AS (
                SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int8[],
                                     $8::float8[], $9::bytea[], $10::float8[], $11::float8[], $12::text[], $13::text[])
                    WITH ORDINALITY AS p(apns_id, activity_id, event, device_token, channel_id, bundle_id, priority,
                                         expiration, payload, created_at, due_at, push_type, collapse_id, n)),
            dead AS (
                SELECT 1 FROM push_unregistered_tokens u WHERE u.token IN (SELECT device_token FROM push)
                \(registryDead)),
            queued AS (
                INSERT INTO push_outbox(apns_id, activity_id, event, device_token, channel_id, bundle_id, priority,
                                        expiration, payload, created_at, due_at, status, attempts, push_type, collapse_id)
                SELECT apns_id, activity_id, event, device_token, channel_id, bundle_id, priority, expiration, payload,
                       created_at, due_at, 'pending', 0, push_type, collapse_id
                FROM push WHERE NOT EXISTS (SELECT 1 FROM dead) ORDER BY n)
            SELECT count(*) AS dead FROM dead
            """
    }

    /// The batch as the columns of ``enqueueSQL(registry:)``, one array each.
    static func enqueueParameters(_ pushes: [OutboxPush]) -> [PostgresValue] {
        [.textArray(pushes.map(\.apnsID.uuidString)), .textArray(pushes.map(\.activityID)),
         .textArray(pushes.map(\.event.rawValue)), .textArray(pushes.map { $0.deviceToken.map(PushTokenText.hex) }),
         .textArray(pushes.map(\.headers.channelID)), .textArray(pushes.map(\.headers.bundleIdentifier)),
         .integerArray(pushes.map { Int64($0.priority) }),
         .doubleArray(pushes.map { $0.headers.expiration?.timeIntervalSince1970 }),
         .bytesArray(pushes.map { [UInt8]($0.payload) }),
         .doubleArray(pushes.map(\.createdAt.timeIntervalSince1970)),
         .doubleArray(pushes.map(\.dueAt.timeIntervalSince1970)),
         .textArray(pushes.map(\.headers.pushType.rawValue)), .textArray(pushes.map(\.collapseID))]
    }

    // MARK: Claim

    /// Picks up to `$3` pushes due by `$1` and free at `$2`, skipping rows another claim has locked, leases them
    /// until `$4` and returns them oldest due first, each with why its token is dead (NULL while it is alive).
    static func claimSQL(registry: Bool) -> String {
        let deadReason = registry
            ? "COALESCE(t.invalid_reason, u.reason, CASE WHEN t.token IS NOT NULL THEN 'invalidated' END)"
            : "u.reason"
        let registryJoin = registry
            ? "LEFT JOIN push_tokens t ON t.token = o.device_token AND t.invalidated_at IS NOT NULL" : ""
        return """
            WITH due AS MATERIALIZED (
                SELECT o.seq, \(deadReason) AS dead_reason
                FROM push_outbox o LEFT JOIN push_unregistered_tokens u ON u.token = o.device_token \(registryJoin)
                WHERE o.status = 'pending' AND o.due_at <= $1 AND (o.retry_at IS NULL OR o.retry_at <= $2)
                  AND (o.lease_until IS NULL OR o.lease_until <= $2)
                ORDER BY o.due_at, o.seq LIMIT $3
                FOR UPDATE OF o SKIP LOCKED),
            leased AS (
                UPDATE push_outbox o SET lease_until = $4 FROM due WHERE o.seq = due.seq
                RETURNING o.*, due.dead_reason)
            SELECT \(columns), o.dead_reason FROM leased o ORDER BY o.due_at, o.seq
            """
    }

    /// Fails the pushes `$1` (a claim found their token dead) with the results `$2` at `$3`.
    static let failDeadSQL = """
        UPDATE push_outbox o SET status = 'failed', last_result = d.result, updated_at = $3, finished_at = $3,
                                 lease_until = NULL
        FROM unnest($1::text[], $2::text[]) AS d(apns_id, result) WHERE o.apns_id = d.apns_id
        """

    // MARK: Record

    /// Records a batch of answers (``answerParameters(_:at:)``) in one statement. The rows are locked first in one
    /// order (`seq`), so two senders recording at once cannot deadlock on them; a retry only touches a push still
    /// pending, as on SQLite.
    static let recordSQL = """
        WITH answer AS (
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int8[], $5::float8[], $6::int8[])
                AS a(apns_id, outcome, result, apns_status, retry_at, provider_token_retries)),
        locked AS MATERIALIZED (
            SELECT o.seq FROM push_outbox o WHERE o.apns_id = ANY($1::text[]) ORDER BY o.seq FOR UPDATE)
        UPDATE push_outbox o SET
            status = CASE a.outcome WHEN 'retry' THEN o.status WHEN 'delivered' THEN 'delivered' ELSE 'failed' END,
            attempts = o.attempts + 1, last_result = a.result, apns_status = a.apns_status, lease_until = NULL,
            retry_at = a.retry_at, updated_at = $7,
            finished_at = CASE a.outcome WHEN 'retry' THEN o.finished_at ELSE $7 END,
            provider_token_retries = o.provider_token_retries + a.provider_token_retries
        FROM answer a
        WHERE o.apns_id = a.apns_id AND o.seq IN (SELECT seq FROM locked) AND (a.outcome <> 'retry' OR o.status = 'pending')
        """

    /// The answers as the columns of ``recordSQL``; an `apns-id` answered twice in one batch keeps its last answer.
    static func answerParameters(_ deliveries: [DeliveryAttempt], at now: Date) -> [PostgresValue] {
        var seen = Set<UUID>()
        let answers = deliveries.reversed().filter { seen.insert($0.apnsID).inserted }.reversed()
        return [.textArray(answers.map(\.apnsID.uuidString)), .textArray(answers.map { outcomeName($0.outcome) }),
                .textArray(answers.map(\.result)), .integerArray(answers.map { $0.status.map(Int64.init) }),
                .doubleArray(answers.map(retryAt)),
                .integerArray(answers.map { if case .retry(_, true) = $0.outcome { 1 } else { 0 } }),
                .seconds(now)]
    }

    /// The tokens answered 410 in a batch (rows `apns_id, device_token, outcome, result` of ``recordSQL``), each
    /// once with the reason of its first push in `apns-id` order.
    static func deadTokens(_ answered: [PostgresRow]) -> [(token: String, reason: String)] {
        var tokens: [(token: String, reason: String)] = []
        var seen = Set<String>()
        let unregistered = answered.filter { $0.string("outcome") == "unregistered" }
            .sorted { ($0.string("apns_id") ?? "") < ($1.string("apns_id") ?? "") }
        for row in unregistered {
            guard let token = row.string("device_token"), seen.insert(token).inserted else { continue }
            tokens.append((token, row.string("result") ?? ""))
        }
        return tokens
    }

    private static func outcomeName(_ outcome: DeliveryAttempt.Outcome) -> String {
        switch outcome {
        case .delivered: "delivered"
        case .failed: "failed"
        case .retry: "retry"
        case .unregistered: "unregistered"
        }
    }

    private static func retryAt(_ delivery: DeliveryAttempt) -> Double? {
        if case .retry(let at, _) = delivery.outcome { at.timeIntervalSince1970 } else { nil }
    }
}
