import Foundation
import JSON
import SharedState

extension EngineStore {
    /// What a reload batch reads before its providers run: each configuration's run inputs and, for a charged
    /// reason, its budget ledger, by key. A key without a configuration (its last instance removed since the
    /// request) is absent from both.
    struct BatchToRun: Sendable {
        var configurations: [String: ConfigurationToRun] = [:]
        var ledgers: [String: BudgetLedger] = [:]
    }

    /// Reads a batch's configurations, and their budget ledgers unless `ledgerPolicy` is nil, in one statement:
    /// the same values ``configurationToRun(key:_:)`` and ``ledger(configurationKey:policy:now:_:)`` read, without
    /// two statements and a `json_each` per configuration.
    /// - Parameters:
    ///   - keys: The configuration keys.
    ///   - ledgerPolicy: The budget to read ledgers against; nil for a reason the budget exempts.
    ///   - now: The time the ledgers are read at.
    /// - Throws: ``EngineError/corruptRow(column:detail:)`` for parameters or charges that are not the JSON stored.
    func batchToRun(keys: some Sequence<String>, ledgerPolicy: ReloadBudgetPolicy?, now: Date,
                    _ db: Database) throws -> BatchToRun {
        var batch = BatchToRun()
        let rows = try db.query("""
            SELECT c.key, c.kind, c.family, c.parameters, c.resolution_diagnostics, c.charges
            FROM json_each(?) AS requested JOIN configurations AS c ON c.key = requested.value
            """, [.text(EngineCoding.text(strings: Array(keys)))])
        for row in rows {
            guard let key = row.string("key") else { continue }
            batch.configurations[key] = try Self.configurationToRun(row)
            if let ledgerPolicy {
                batch.ledgers[key] = BudgetLedger(charges: try Self.charges(row.string("charges")),
                                                  policy: ledgerPolicy, now: now)
            }
        }
        return batch
    }

    /// The charge times in a configuration's `charges` column (a JSON array of times, as `Date.sqlValue` stores
    /// them); members that are not numbers are left out, as the ledger's SQL comparisons leave them out.
    static func charges(_ text: String?) throws -> [Date] {
        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse(Data((text ?? "").utf8))
        } catch {
            throw EngineError.corruptRow(column: "charges", detail: "\(error)")
        }
        guard case .array(let values) = parsed else {
            throw EngineError.corruptRow(column: "charges", detail: "not a JSON array")
        }
        return values.compactMap { value in
            switch value {
            case .int(let seconds): Date(sqlValue: .integer(Int64(seconds)))
            case .double(let seconds): Date(sqlValue: .real(seconds))
            default: nil
            }
        }
    }
}
