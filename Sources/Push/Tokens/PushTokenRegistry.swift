import Foundation
import JSON
import PostgresStore
import SharedState

/// The server's push tokens, durable: what a host service's token endpoints store when apps post the tokens their
/// streams deliver, and what the planner and the sender address pushes with.
///
/// Each ``PushTokenSlot`` has at most one current token. Registering a new one rotates it (the old one stays in the
/// history, marked replaced); registering the current one again changes nothing, so apps may post on every launch.
/// A token marked invalid (``invalidate(_:reason:)``, as the sender does on APNs' `410 Unregistered`) is never used
/// again, and registering it again is refused. Every method is one transaction.
public final class PushTokenRegistry: Sendable {
    private let database: PushDatabase
    private let now: @Sendable () -> Date

    /// Opens the registry on `database`, applying its migrations.
    /// - Parameters:
    ///   - database: The push store's database.
    ///   - now: The clock registrations are dated by (the engine's, so virtual time applies).
    public convenience init(database: DatabaseStore, now: @escaping @Sendable () -> Date) throws {
        try self.init(.sqlite(database), now: now)
    }

    /// Opens the registry in a PostgreSQL database several daemons share, applying its migrations.
    /// - Throws: ``PostgresError`` (`.unavailable` when the server cannot be reached).
    public convenience init(pool: PostgresPool, now: @escaping @Sendable () -> Date) throws {
        try self.init(.postgres(pool), now: now)
    }

    /// Opens the registry in `database` (SQLite or PostgreSQL), applying its migrations.
    public init(_ database: PushDatabase, now: @escaping @Sendable () -> Date) throws {
        try database.migrate(sqlite: Self.migrator, postgres: PushPostgresSchema.tokens)
        self.database = database
        self.now = now
    }

    /// Registers `token` in `slot`.
    /// - Parameters:
    ///   - attributesType: The attributes type, for activity tokens (push-to-start slots name it already).
    ///   - device: The device, for activity tokens (the other slots name it already).
    ///   - widgetKinds: For widget tokens, the kinds the device has placed; registering the same token with other
    ///     kinds updates them without a rotation.
    /// - Returns: Whether the slot's token was created, rotated or unchanged.
    /// - Throws: ``PushTokenError`` (an invalidated token, a token of another slot, a bad identifier).
    @discardableResult
    public func register(_ token: Data, in slot: PushTokenSlot, device: String? = nil, attributesType: String? = nil,
                         widgetKinds: [String] = []) throws -> PushTokenRegistration {
        let (device, attributesType) = try Self.identifiers(slot, device: device, attributesType: attributesType)
        for kind in widgetKinds { try Self.check("widget kind", kind) }
        let hex = PushTokenText.hex(token)
        let date = now()
        return try database.write { db in
            if let existing = try db.queryOne("SELECT * FROM push_tokens WHERE token = ?", [.text(hex)]) {
                let record = try Self.record(existing)
                if record.invalidatedAt != nil {
                    throw PushTokenError.invalidated(token: hex, reason: record.invalidReason ?? "")
                }
                guard record.slot == slot else {
                    throw PushTokenError.registeredElsewhere(token: hex, slot: Self.describe(record.slot))
                }
                if record.replacedAt == nil {
                    if record.widgetKinds != widgetKinds, case .widgets = slot {
                        try db.execute("UPDATE push_tokens SET widget_kinds = ? WHERE token = ?",
                                       [.text(Self.kindsText(widgetKinds)), .text(hex)])
                    }
                    return .unchanged
                }
                // An old token of this slot coming back: it becomes current again, as a rotation.
            }
            let previous = try db.queryOne("""
                SELECT token FROM push_tokens WHERE kind = ? AND slot_key = ? AND replaced_at IS NULL
                """, [.text(slot.kind), .text(slot.key)])?.string("token")
            try db.execute("""
                UPDATE push_tokens SET replaced_at = ? WHERE kind = ? AND slot_key = ? AND replaced_at IS NULL
                """, [date.sqlValue, .text(slot.kind), .text(slot.key)])
            try db.execute("""
                INSERT INTO push_tokens(token, kind, slot_key, device, attributes_type, widget_kinds, registered_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(token) DO UPDATE SET replaced_at = NULL, registered_at = excluded.registered_at
                """, [.text(hex), .text(slot.kind), .text(slot.key), device.sqlValue, attributesType.sqlValue,
                      .text(Self.kindsText(widgetKinds)), date.sqlValue])
            return previous.flatMap(PushTokenText.token).map { .rotated(previous: $0) } ?? .created
        }
    }

    /// Marks `token` invalid, with why; it is never used again. Marking it again keeps the first reason.
    /// - Throws: ``PushTokenError/unknownToken(_:)``.
    public func invalidate(_ token: Data, reason: String) throws {
        let hex = PushTokenText.hex(token)
        let date = now()
        try database.write { db in
            guard try db.queryOne("SELECT 1 FROM push_tokens WHERE token = ?", [.text(hex)]) != nil else {
                throw PushTokenError.unknownToken(hex)
            }
            try db.execute("""
                UPDATE push_tokens SET invalidated_at = ?, invalid_reason = ? WHERE token = ? AND invalidated_at IS NULL
                """, [date.sqlValue, .text(reason), .text(hex)])
        }
    }

    /// The slot's current token, if it has a usable one.
    public func current(_ slot: PushTokenSlot) throws -> PushTokenRecord? {
        try history(slot).last.flatMap { $0.isUsable ? $0 : nil }
    }

    /// Every token the slot had, oldest first.
    public func history(_ slot: PushTokenSlot) throws -> [PushTokenRecord] {
        try database.read { db in
            try db.query("""
                SELECT * FROM push_tokens WHERE kind = ? AND slot_key = ? ORDER BY replaced_at IS NULL, registered_at, \(db.insertionOrder)
                """, [.text(slot.kind), .text(slot.key)]).map(Self.record)
        }
    }

    /// The registration of `token`, if any.
    public func lookup(_ token: Data) throws -> PushTokenRecord? {
        try database.read { db in
            try db.queryOne("SELECT * FROM push_tokens WHERE token = ?", [.text(PushTokenText.hex(token))]).map(Self.record)
        }
    }

    /// Every current token of a device (push-to-start, widgets, and activity tokens registered with the device).
    /// - Throws: ``PushTokenError/invalidIdentifier(field:value:)`` for a device name no slot could have.
    public func tokens(device: String) throws -> [PushTokenRecord] {
        try Self.check("device", device)
        return try database.read { db in
            try db.query("""
                SELECT * FROM push_tokens WHERE device = ? AND replaced_at IS NULL ORDER BY kind, registered_at, \(db.insertionOrder)
                """, [.text(device)]).map(Self.record)
        }
    }
}
