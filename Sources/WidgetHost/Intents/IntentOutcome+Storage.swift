import Foundation
import JSON
import SharedState

extension IntentOutcome {
    /// The outcome in its stored form: the `Codable` JSON that `JSONEncoder` writes with
    /// `[.sortedKeys, .withoutEscapingSlashes]`, byte for byte, so `JSONDecoder` reads it back exactly as it reads
    /// an encoded outcome. Written directly (``JSONTextWriter``), because encoding through `Codable` for every
    /// perform with an idempotency key cost more CPU than the perform itself.
    ///
    /// Members are written in sorted order by hand; the tests compare the bytes with `JSONEncoder`'s, so a member
    /// added to a type without being added here fails them.
    /// - Throws: `EncodingError` for a NaN or infinite double (as `JSONEncoder` does).
    func storedJSON() throws -> Data {
        // Room for a perform changing a row or two and a key, which is most of them (about 900 bytes): growing
        // from less copied the text once more.
        var writer = JSONTextWriter(capacity: 1024)
        try writer.write(self)
        return writer.data
    }
}

extension JSONTextWriter {
    mutating func write(_ outcome: IntentOutcome) throws {
        beginObject()
        key(plain: "changes")
        try write(outcome.changes)
        if let dialog = outcome.dialog {
            key(plain: "dialog")
            string(dialog)
        }
        if let idempotency = outcome.idempotency {
            key(plain: "idempotency")
            try write(idempotency)
        }
        if let instanceID = outcome.instanceID {
            key(plain: "instanceID")
            string(instanceID)
        }
        key(plain: "intentName")
        string(outcome.intentName)
        key(plain: "isDryRun")
        bool(outcome.isDryRun)
        key(plain: "parameters")
        try value(.object(outcome.parameters))
        key(plain: "performedAt")
        try date(outcome.performedAt)
        key(plain: "plannedReloads")
        beginArray()
        for planned in outcome.plannedReloads { write(planned) }
        endArray()
        if let reloadFailure = outcome.reloadFailure {
            key(plain: "reloadFailure")
            string(reloadFailure)
        }
        key(plain: "reloads")
        beginArray()
        for record in outcome.reloads { try write(record) }
        endArray()
        if let requestedControlReloads = outcome.requestedControlReloads {
            key(plain: "requestedControlReloads")
            strings(requestedControlReloads)
        }
        key(plain: "requestedReloads")
        strings(outcome.requestedReloads)
        if let value = outcome.value {
            key(plain: "value")
            try self.value(value)
        }
        endObject()
    }

    private mutating func write(_ idempotency: IdempotencyInfo) throws {
        beginObject()
        key(plain: "expiresAt")
        try date(idempotency.expiresAt)
        key(plain: "firstPerformedAt")
        try date(idempotency.firstPerformedAt)
        key(plain: "isReplay")
        bool(idempotency.isReplay)
        key(plain: "key")
        string(idempotency.key)
        endObject()
    }

    private mutating func write(_ planned: PlannedReload) {
        beginObject()
        key(plain: "deferredByBudget")
        bool(planned.deferredByBudget)
        key(plain: "instanceID")
        string(planned.instanceID)
        key(plain: "kind")
        string(planned.kind)
        key(plain: "reason")
        string(planned.reason.rawValue)
        endObject()
    }

    private mutating func write(_ record: ReloadRecord) throws {
        beginObject()
        key(plain: "chargedInstanceIDs")
        strings(record.chargedInstanceIDs)
        key(plain: "configurationKey")
        string(record.configurationKey)
        key(plain: "instanceIDs")
        strings(record.instanceIDs)
        key(plain: "outcome")
        string(record.outcome)
        key(plain: "ranAt")
        try date(record.ranAt)
        key(plain: "reason")
        string(record.reason.rawValue)
        endObject()
    }

    private mutating func strings(_ values: [String]) {
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    // MARK: Changes (SharedState's synthesized Codable forms)

    mutating func write(_ changes: ChangeSet) throws {
        beginObject()
        key(plain: "keys")
        beginArray()
        for change in changes.keys { try write(change) }
        endArray()
        key(plain: "rows")
        beginArray()
        for change in changes.rows { try write(change) }
        endArray()
        endObject()
    }

    private mutating func write(_ change: RowChange) throws {
        beginObject()
        if let columns = change.newColumns, let values = change.newValues {
            key(plain: "new")
            try write(columns, values)
        }
        if let columns = change.oldColumns, let values = change.oldValues {
            key(plain: "old")
            try write(columns, values)
        }
        key(plain: "operation")
        string(change.operation.rawValue)
        key(plain: "rowID")
        int(change.rowID)
        key(plain: "table")
        string(change.table)
        endObject()
    }

    /// A row's columns by name, in the order of their names' UTF-8 bytes, which the table's shared names computed
    /// once.
    private mutating func write(_ columns: RowColumns, _ values: [SQLValue]) throws {
        beginObject()
        for index in columns.sortedIndices {
            key(columns.names[index])
            try write(values[index])
        }
        endObject()
    }

    private mutating func write(_ change: KeyChange) throws {
        beginObject()
        key(plain: "key")
        string(change.key)
        if let new = change.new {
            key(plain: "new")
            try write(new)
        }
        if let old = change.old {
            key(plain: "old")
            try write(old)
        }
        key(plain: "suite")
        string(change.suite)
        endObject()
    }

    /// An enum case with one unlabeled associated value, as synthesized: `{"case":{"_0":value}}`.
    private mutating func enumCase(_ name: StaticString, _ writeValue: (inout JSONTextWriter) throws -> Void) rethrows {
        beginEnumCase(name)
        try writeValue(&self)
        endEnumCase()
    }

    mutating func write(_ value: SQLValue) throws {
        switch value {
        case .null:
            beginObject()
            key(plain: "null")
            beginObject()
            endObject()
            endObject()
        case .integer(let integer): enumCase("integer") { $0.int(integer) }
        case .real(let real): try enumCase("real") { try $0.double(real) }
        case .text(let text): enumCase("text") { $0.string(text) }
        case .blob(let data): enumCase("blob") { $0.base64(data) }
        }
    }

    mutating func write(_ value: PropertyListValue) throws {
        switch value {
        case .string(let string): enumCase("string") { $0.string(string) }
        case .integer(let integer): enumCase("integer") { $0.int(integer) }
        case .double(let double): try enumCase("double") { try $0.double(double) }
        case .bool(let bool): enumCase("bool") { $0.bool(bool) }
        case .data(let data): enumCase("data") { $0.base64(data) }
        case .date(let date): try enumCase("date") { try $0.date(date) }
        case .array(let values):
            try enumCase("array") { writer in
                writer.beginArray()
                for element in values { try writer.write(element) }
                writer.endArray()
            }
        case .dictionary(let members):
            try enumCase("dictionary") { writer in
                try writer.object(members) { writer, member in try writer.write(member) }
            }
        }
    }
}
