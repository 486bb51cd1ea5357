import Foundation
import JSON
import SharedState

extension IntentOutcome {
    /// The outcome as plain JSON for people and HTTP clients: values as JSON values (dates ISO 8601, data and
    /// blobs base64), rows and keys with `old` and `new`, reload records with their reasons.
    ///
    /// Lossy where JSON is (an integral REAL prints like an integer); use `Codable` to store outcomes exactly.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "intent": .string(intentName),
            "parameters": .object(parameters),
            "dryRun": .bool(isDryRun),
            "performedAt": .string(Self.iso8601(performedAt)),
            "changes": .object([
                "rows": .array(changes.rows.map(Self.json)),
                "keys": .array(changes.keys.map(Self.json)),
            ]),
            "requestedReloads": .array(requestedReloads.map(JSONValue.string)),
            "plannedReloads": .array(plannedReloads.map { planned in
                .object(["instance": .string(planned.instanceID), "kind": .string(planned.kind),
                         "reason": .string(planned.reason.rawValue), "budgetExempt": .bool(planned.isBudgetExempt),
                         "deferredByBudget": .bool(planned.deferredByBudget)])
            }),
            "reloads": .array(reloads.map { record in
                .object(["configuration": .string(record.configurationKey), "reason": .string(record.reason.rawValue),
                         "ranAt": .string(Self.iso8601(record.ranAt)),
                         "instances": .array(record.instanceIDs.map(JSONValue.string)),
                         "charged": .array(record.chargedInstanceIDs.map(JSONValue.string)),
                         "outcome": .string(record.outcome)])
            }),
        ]
        members["instance"] = instanceID.map(JSONValue.string)
        members["value"] = value
        members["dialog"] = dialog.map(JSONValue.string)
        members["reloadFailure"] = reloadFailure.map(JSONValue.string)
        if let idempotency {
            members["idempotency"] = .object([
                "key": .string(idempotency.key), "replayed": .bool(idempotency.isReplay),
                "firstPerformedAt": .string(Self.iso8601(idempotency.firstPerformedAt)),
                "expiresAt": .string(Self.iso8601(idempotency.expiresAt)),
            ])
        }
        return .object(members)
    }

    private static func json(_ row: RowChange) -> JSONValue {
        var members: [String: JSONValue] = [
            "table": .string(row.table), "operation": .string(row.operation.rawValue), "rowid": .int(Int(row.rowID)),
        ]
        members["old"] = row.old.map { .object($0.mapValues(json)) }
        members["new"] = row.new.map { .object($0.mapValues(json)) }
        return .object(members)
    }

    private static func json(_ key: KeyChange) -> JSONValue {
        .object(["suite": .string(key.suite), "key": .string(key.key),
                 "old": key.old.map(json) ?? .null, "new": key.new.map(json) ?? .null])
    }

    /// A column value as plain JSON: integers and finite reals as numbers, text as strings, blobs base64.
    public static func json(_ value: SQLValue) -> JSONValue {
        switch value {
        case .null: .null
        case .integer(let value): .int(Int(value))
        case .real(let value): value.isFinite ? .double(value) : .string(String(value))
        case .text(let value): .string(value)
        case .blob(let value): .string(value.base64EncodedString())
        }
    }

    /// A defaults value as plain JSON: dates ISO 8601, data base64, arrays and dictionaries as JSON ones.
    public static func json(_ value: PropertyListValue) -> JSONValue {
        switch value {
        case .string(let value): .string(value)
        case .integer(let value): .int(value)
        case .double(let value): value.isFinite ? .double(value) : .string(String(value))
        case .bool(let value): .bool(value)
        case .data(let value): .string(value.base64EncodedString())
        case .date(let value): .string(iso8601(value))
        case .array(let values): .array(values.map(json))
        case .dictionary(let values): .object(values.mapValues(json))
        }
    }

    static func iso8601(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
