import Foundation
import JSON
import SharedState
import WidgetHost

/// The human-readable form of an intent's outcome, for `widgethost perform`.
package enum OutcomeText {
    package static func render(_ outcome: IntentOutcome) -> String {
        var lines: [String] = []
        let status = outcome.isDryRun ? "dry run, rolled back: nothing was changed"
            : outcome.isReplay ? "replayed: already performed with this idempotency key, not run again"
            : "performed and committed"
        lines.append("\(outcome.intentName): \(status)")
        if !outcome.parameters.isEmpty {
            let parameters = outcome.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.canonicalText)" }
            lines.append("parameters: \(parameters.joined(separator: " "))")
        }
        if let value = outcome.value { lines.append("result: \(value.canonicalText)") }
        if let dialog = outcome.dialog { lines.append("dialog: \(dialog)") }
        if let idempotency = outcome.idempotency {
            lines.append("idempotency key '\(idempotency.key)': first performed \(iso(idempotency.firstPerformedAt)), "
                + "expires \(iso(idempotency.expiresAt))")
        }
        lines.append(outcome.changes.isEmpty ? "changes: none" : "changes:")
        for row in outcome.changes.rows {
            lines.append("  \(row.table) rowid \(row.rowID) \(row.operation.rawValue): \(describe(row))")
        }
        for key in outcome.changes.keys {
            lines.append("  default \(key.key) (\(key.suite)): \(describe(key.old)) -> \(describe(key.new))")
        }
        if !outcome.requestedReloads.isEmpty {
            lines.append("requested reloads: \(outcome.requestedReloads.joined(separator: ", "))")
        }
        for planned in outcome.plannedReloads {
            var line = "  reload \(planned.instanceID) (\(planned.kind)): \(planned.reason.rawValue), "
                + (planned.isBudgetExempt ? "budget-exempt" : "budgeted")
            if planned.deferredByBudget { line += ", deferred: budget spent" }
            lines.append(line)
        }
        for record in outcome.reloads {
            lines.append("  ran provider for \(record.instanceIDs.joined(separator: ", ")) (\(record.reason.rawValue)): "
                + record.outcome)
        }
        if let failure = outcome.reloadFailure { lines.append("reload failed after the commit: \(failure)") }
        return lines.joined(separator: "\n")
    }

    private static func describe(_ row: RowChange) -> String {
        let columns = Set((row.old ?? [:]).keys).union((row.new ?? [:]).keys).sorted()
        switch row.operation {
        case .insert:
            return columns.map { "\($0)=\(row.new?[$0]?.description ?? "NULL")" }.joined(separator: " ")
        case .delete:
            return columns.map { "\($0)=\(row.old?[$0]?.description ?? "NULL")" }.joined(separator: " ")
        case .update:
            let changed = columns.filter { row.old?[$0] != row.new?[$0] }
            return changed.map { "\($0) \(row.old?[$0]?.description ?? "NULL") -> \(row.new?[$0]?.description ?? "NULL")" }
                .joined(separator: ", ")
        }
    }

    private static func describe(_ value: PropertyListValue?) -> String {
        guard let value else { return "(none)" }
        switch value {
        case .string(let text): return text.debugDescription
        case .integer(let number): return String(number)
        case .double(let number): return String(number)
        case .bool(let flag): return String(flag)
        case .date(let date): return iso(date)
        case .data(let data): return "<\(data.count) bytes>"
        case .array, .dictionary: return "\(value)"
        }
    }

    private static func iso(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }
}
