import Foundation

/// The outbox as a sender sees it: pushes queued, claimed under a lease, and their answers recorded. Implemented
/// on SQLite by ``PushStore`` (one daemon) and on PostgreSQL by ``PostgresPushOutbox`` (several senders sharing
/// one outbox, Docs/postgres.md), which a ``PushStore`` on PostgreSQL delegates to.
///
/// Every implementation keeps the same promises, which one contract test suite holds both to:
/// - a queued batch is stored whole or not at all, and is durable when ``enqueue(contentsOf:)`` returns;
/// - a claimed push is leased to its claimer until the lease ends: no other claim returns it before that, so two
///   senders never send one push at once, and a sender that dies loses its claims when their leases end;
/// - an answer batch is recorded in one transaction; a 410 fails the push, remembers its token as dead, and fails
///   every pending push to that token that is not in flight; a later claim fails (instead of returning) a push to a
///   dead token, and ``enqueue(contentsOf:)`` refuses one.
public protocol PushDeliveryQueue: Sendable {
    /// Queues `pushes` in one transaction (their `status` is ignored: they start pending).
    /// - Throws: ``PushOutboxError`` for the first push refused (invalid, a dead token, a taken `apns-id`); nothing
    ///   is queued then.
    func enqueue(contentsOf pushes: [OutboxPush]) throws

    /// Claims up to `limit` pending pushes due by `dueBy`, not waiting for a retry at `now` and not leased, oldest
    /// due first, leasing them until `now + lease`. Pushes to a dead token are failed instead of claimed.
    func claimDue(limit: Int, dueBy: Date, at now: Date, lease: Duration) throws -> [OutboxPush]

    /// Records a batch of answers in one transaction; `now` is when they were recorded.
    func record(_ deliveries: [DeliveryAttempt], at now: Date) throws

    /// Ends every lease (only right when the caller is the only sender on this outbox).
    /// - Returns: How many pushes were leased.
    @discardableResult
    func releaseLeases() throws -> Int

    /// Pending pushes: the sender's queue depth.
    func pendingCount() throws -> Int

    /// The push with `apnsID`, if any.
    func push(apnsID: UUID) throws -> OutboxPush?

    /// Why `token` gets no push (APNs answered 410 for it, or the registry invalidated it), nil while it is alive.
    func deadTokenReason(_ token: Data) throws -> String?
}

extension PushStore: PushDeliveryQueue {
    public func enqueue(contentsOf pushes: [OutboxPush]) throws {
        // On PostgreSQL the shared outbox queues a batch in one statement rather than two per push.
        if let sharedOutbox { return try sharedOutbox.enqueue(contentsOf: pushes) }
        try outbox.enqueue(contentsOf: pushes)
    }

    public func push(apnsID: UUID) throws -> OutboxPush? {
        try outbox.push(apnsID: apnsID)
    }

    public func deadTokenReason(_ token: Data) throws -> String? {
        if let sharedOutbox { return try sharedOutbox.deadTokenReason(token) }
        return try storage.read { db in try PushOutbox.deadTokenReason(PushTokenText.hex(token), db) }
    }
}
