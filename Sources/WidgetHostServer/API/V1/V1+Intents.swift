import AppIntents
import Foundation
import JSON
import SharedState
import WidgetHost

extension V1 {
    /// `GET /v1/intents`.
    struct IntentList: Encodable {
        var intents: [Intent]
    }

    /// One interactive intent a host can perform: its name, title and parameters.
    struct Intent: Encodable {
        var name: String
        var title: String
        var description: String?
        /// Declared parameters in declaration order. Widgets do not resolve parameters for app intents: each one
        /// that is neither optional nor defaulted must be sent.
        var parameters: [Parameter]

        init(_ descriptor: IntentDescriptor) {
            name = descriptor.name
            title = descriptor.title
            description = descriptor.type.intentDescriptionText
            parameters = descriptor.parameters.map { declaration in
                var parameter = Parameter(declaration)
                // Options are listed for configuration parameters of kinds only.
                parameter.hasOptions = false
                return parameter
            }
        }
    }

    /// `POST /v1/intents/{name}/perform`: the parameters and the tapped widget (OpenAPI `PerformRequest`).
    struct PerformBody: Decodable {
        /// Parameter values by name (entity ids, enum raw values, ISO 8601 dates); absent means none.
        var parameters: [String: JSONValue]?
        /// The tapped instance: reloaded at once after the commit, exempt from its budget.
        var instance: String?
    }

    /// What a perform did (or, for a dry run, would do): the answer of `POST /v1/intents/{name}/perform` and what
    /// `widgethost perform --json` prints (OpenAPI `IntentOutcome`).
    package struct PerformOutcome: Encodable {
        var intent: String
        var parameters: [String: JSONValue]
        var instance: String?
        var value: JSONValue?
        var dialog: String?
        var dryRun: Bool
        var performedAt: Date
        var changes: Changes
        /// Kinds the intent asked `WidgetCenter` to reload (`*` for all).
        var requestedReloads: [String]
        var plannedReloads: [PlannedReload]
        /// Provider runs made after the commit; empty for dry runs, and for replays unless the first perform's
        /// reloads were still owed (a crash, or a failed reload, before they ran).
        var reloads: [Reload]
        var reloadFailure: String?
        /// Control kinds the intent asked `ControlCenter` to reload (`*` for all).
        var requestedControlReloads: [String]
        /// Control reloads made after the commit: the performed control first (for a control's perform), then the
        /// requested ones; empty for dry runs, and for replays unless the first perform's were still owed.
        var controlReloads: [ControlReload]
        var idempotency: Idempotency?

        package init(_ outcome: WidgetHost.IntentOutcome) {
            intent = outcome.intentName
            parameters = outcome.parameters
            instance = outcome.instanceID
            value = outcome.value
            dialog = outcome.dialog
            dryRun = outcome.isDryRun
            performedAt = outcome.performedAt
            changes = Changes(rows: outcome.changes.rows.map(ChangedRow.init),
                              keys: outcome.changes.keys.map(ChangedKey.init))
            requestedReloads = outcome.requestedReloads
            plannedReloads = outcome.plannedReloads.map(PlannedReload.init)
            reloads = outcome.reloads.map(Reload.init)
            reloadFailure = outcome.reloadFailure
            requestedControlReloads = outcome.requestedControlReloads ?? []
            controlReloads = outcome.controlReloads.map(ControlReload.init)
            idempotency = outcome.idempotency.map(Idempotency.init)
        }
    }

    /// The rows and defaults keys a perform changed, before → after.
    struct Changes: Encodable {
        var rows: [ChangedRow]
        var keys: [ChangedKey]
    }

    /// One changed row of the App Group's database (OpenAPI `RowChange`).
    struct ChangedRow: Encodable {
        var table: String
        /// `insert`, `update` or `delete`.
        var operation: String
        var rowid: Int64
        var old: [String: JSONValue]?
        var new: [String: JSONValue]?

        init(_ change: SharedState.RowChange) {
            table = change.table
            operation = change.operation.rawValue
            rowid = change.rowID
            old = change.old?.mapValues(WidgetHost.IntentOutcome.json)
            new = change.new?.mapValues(WidgetHost.IntentOutcome.json)
        }
    }

    /// One changed `UserDefaults` key of the App Group; `old`/`new` are null when the key was absent (OpenAPI
    /// `KeyChange`).
    struct ChangedKey: Encodable {
        var suite: String
        var key: String
        var old: JSONValue
        var new: JSONValue

        init(_ change: SharedState.KeyChange) {
            suite = change.suite
            key = change.key
            old = change.old.map(WidgetHost.IntentOutcome.json) ?? .null
            new = change.new.map(WidgetHost.IntentOutcome.json) ?? .null
        }
    }

    /// A reload a perform causes, as decided before it ran.
    struct PlannedReload: Encodable {
        var instanceId: String
        var kind: String
        var reason: String
        var budgetExempt: Bool
        var deferredByBudget: Bool

        init(_ planned: WidgetHost.PlannedReload) {
            instanceId = planned.instanceID
            kind = planned.kind
            reason = planned.reason.rawValue
            budgetExempt = planned.isBudgetExempt
            deferredByBudget = planned.deferredByBudget
        }
    }

    /// How the request's `Idempotency-Key` was used.
    struct Idempotency: Encodable {
        var key: String
        /// True when this is the stored first outcome, returned without performing again.
        var replayed: Bool
        var firstPerformedAt: Date
        var expiresAt: Date

        init(_ info: IdempotencyInfo) {
            key = info.key
            replayed = info.isReplay
            firstPerformedAt = info.firstPerformedAt
            expiresAt = info.expiresAt
        }
    }
}
