import Foundation
import JSON
import SharedState

/// The registry's table: one row per token ever registered, keyed by the token; a slot's current token is its row
/// without `replaced_at`.
extension PushTokenRegistry {
    static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration("Push.tokens.1-registry") { db in
            try db.execute("""
                CREATE TABLE push_tokens(
                    token TEXT PRIMARY KEY NOT NULL,
                    kind TEXT NOT NULL,
                    slot_key TEXT NOT NULL,
                    device TEXT,
                    attributes_type TEXT,
                    widget_kinds TEXT NOT NULL DEFAULT '[]',
                    registered_at REAL NOT NULL,
                    replaced_at REAL,
                    invalidated_at REAL,
                    invalid_reason TEXT)
                """)
            try db.execute("CREATE INDEX push_tokens_by_slot ON push_tokens(kind, slot_key, registered_at)")
            try db.execute("CREATE INDEX push_tokens_by_device ON push_tokens(device) WHERE device IS NOT NULL")
        }
        return migrator
    }

    static func record(_ row: PushSQLRow) throws -> PushTokenRecord {
        let kind = row.string("kind") ?? ""
        let key = row.string("slot_key") ?? ""
        let slot: PushTokenSlot
        switch kind {
        case "push_to_start":
            let parts = key.split(separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 else { throw PushStoreError.corruptRow("push_tokens.slot_key") }
            slot = .pushToStart(device: parts[0], attributesType: parts[1])
        case "activity": slot = .activity(id: key)
        case "widgets": slot = .widgets(device: key)
        default: throw PushStoreError.corruptRow("push_tokens.kind")
        }
        guard let token = PushTokenText.token(row.string("token") ?? "") else {
            throw PushStoreError.corruptRow("push_tokens.token")
        }
        var kinds: [String] = []
        if case .array(let items)? = try? JSONValue(parsing: row.string("widget_kinds") ?? "[]") {
            kinds = items.compactMap(\.stringValue)
        }
        return PushTokenRecord(
            slot: slot, token: token, device: row.string("device"), attributesType: row.string("attributes_type"),
            widgetKinds: kinds, registeredAt: row.date("registered_at") ?? .distantPast,
            replacedAt: row.date("replaced_at"), invalidatedAt: row.date("invalidated_at"),
            invalidReason: row.string("invalid_reason"))
    }

    static func kindsText(_ kinds: [String]) -> String {
        JSONValue.array(kinds.map(JSONValue.string)).canonicalText
    }

    static func describe(_ slot: PushTokenSlot) -> String {
        switch slot {
        case .pushToStart(let device, let type): "the push-to-start token of \(type) on device \(device)"
        case .activity(let id): "the update token of activity \(id)"
        case .widgets(let device): "the widget token of device \(device)"
        }
    }

    /// The device and attributes type of a registration, checked.
    static func identifiers(_ slot: PushTokenSlot, device: String?,
                            attributesType: String?) throws -> (device: String?, attributesType: String?) {
        switch slot {
        case .pushToStart(let slotDevice, let type):
            try check("device", slotDevice)
            try check("attributes type", type)
            return (slotDevice, type)
        case .activity(let id):
            try check("activity id", id)
            if let device { try check("device", device) }
            if let attributesType { try check("attributes type", attributesType) }
            return (device, attributesType)
        case .widgets(let slotDevice):
            try check("device", slotDevice)
            return (slotDevice, nil)
        }
    }

    /// Checks an identifier as the registry does: not empty, at most 256 bytes, no control characters.
    /// - Throws: ``PushTokenError/invalidIdentifier(field:value:)``.
    public static func check(_ field: String, _ value: String) throws {
        guard !value.isEmpty, value.utf8.count <= 256,
              !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw PushTokenError.invalidIdentifier(field: field, value: value)
        }
    }
}

/// A push store's row that does not read back: the file was changed by something else.
public enum PushStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The column that did not read back.
    case corruptRow(String)

    public var description: String {
        switch self {
        case .corruptRow(let column): "the push store's \(column) holds a value WidgetHost did not write"
        }
    }
}

extension PushTokenRegistry {
    /// The activity's usable update token, read inside the caller's transaction (the planner's, so the token it
    /// addresses a push with is the one current when the push is queued).
    static func usableActivityToken(_ activityID: String, _ db: PushSQLConnection) throws -> Data? {
        try db.queryOne("""
            SELECT token FROM push_tokens
            WHERE kind = 'activity' AND slot_key = ? AND replaced_at IS NULL AND invalidated_at IS NULL
            """, [.text(activityID)])?.string("token").flatMap(PushTokenText.token)
    }
}
